package example.wallpapers.analysis;

import static example.wallpapers.analysis.Chains.lowercaseThen;
import static example.wallpapers.analysis.Chains.normalize;
import static example.wallpapers.analysis.Chains.tokens;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AmericanSpellingTest {

    private static final AmericanSpellingTokenFilterFactory SPELLING = new AmericanSpellingTokenFilterFactory();

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "colour, color", "colours, colors", "coloured, colored", "colourful, colorful",
        "harbour, harbor", "harbours, harbors", "neighbour, neighbor", "neighbourhood, neighborhood",
        "flavour, flavor", "favourite, favorite", "grey, gray", "centre, center", "centres, centers",
        "theatre, theater", "metre, meter", "realise, realize", "organise, organize",
        "jewellery, jewelry", "aeroplane, airplane", "tyre, tire", "honour, honor", "vapour, vapor",
        "armour, armor", "arbour, arbor", "odour, odor", "rumour, rumor", "glamour, glamor",
        "splendour, splendor", "valour, valor", "parlour, parlor", "labour, labor", "mould, mold",
        "plough, plow", "sceptre, scepter", "sombre, somber", "fibre, fiber", "lustre, luster",
        "kerb, curb", "storey, story", "catalogue, catalog", "programme, program",
        "travelling, traveling", "travelled, traveled", "cosy, cozy", "moustache, mustache",
        "pyjamas, pajamas" })
    void britishToAmerican(String british, String american) throws IOException {
        assertEquals(List.of(american), lowercaseThen(british, SPELLING));
    }

    @ParameterizedTest(name = "{0} is unchanged")
    @ValueSource(strings = { "four", "hour", "pour", "your", "tour", "flour", "autumn", "dialogue", "whisky",
        "color", "colourfully", "colo", "metres2" })
    void otherWordsAreUnchanged(String word) throws IOException {
        assertEquals(List.of(word), lowercaseThen(word, SPELLING));
    }

    @Test
    void matchesLowerCaseTokensOnly() throws IOException {
        assertEquals(List.of("Colour", "color"), tokens("Colour colour", SPELLING));
    }

    @Test
    void harboursThroughKstem() throws IOException {
        assertEquals(List.of("harbors"), lowercaseThen("Harbours", SPELLING));
        assertEquals(List.of("harbor"), lowercaseThen("Harbours", SPELLING, new KStemTokenFilterFactory()));
    }

    @Test
    void replacesOnlyListedWordsInASentence() throws IOException {
        assertEquals(List.of("the", "gray", "harbor", "at", "four"), lowercaseThen("The grey harbour at four", SPELLING));
    }

    @Test
    void isAppliedInNormalize() throws IOException {
        assertEquals(List.of("color"), normalize("colour", SPELLING));
        assertEquals(List.of("colou"), normalize("colou", SPELLING));
    }

    @Test
    void wordListIsLowerCaseAndConsistent() {
        Map<String, String> words = AmericanSpellingFilter.wordList();
        assertEquals(true, words.size() >= 60, "word list has " + words.size() + " entries");
        words.forEach((british, american) -> {
            assertEquals(british.toLowerCase(Locale.ROOT), british);
            assertEquals(american.toLowerCase(Locale.ROOT), american);
            assertNotEquals(british, american);
        });
    }
}
