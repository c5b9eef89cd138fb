package example.wallpapers.analysis;

import static example.wallpapers.analysis.Chains.lowercaseThen;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class IrregularPluralTest {

    @Test
    void pluralsAndSingularsMeetAfterTheStemmer() throws IOException {
        for (String[] pair : new String[][] { { "wolves", "wolf" }, { "mice", "mouse" }, { "nebulae", "nebula" }, { "knives", "knife" } }) {
            assertEquals(
                lowercaseThen(pair[1], new IrregularPluralTokenFilterFactory(), new KStemTokenFilterFactory()),
                lowercaseThen(pair[0], new IrregularPluralTokenFilterFactory(), new KStemTokenFilterFactory()),
                pair[0] + " and " + pair[1]);
        }
    }

    @Test
    void everyListedPluralIsReplacedByItsSingular() throws IOException {
        for (Map.Entry<String, String> entry : IrregularPluralFilter.wordList().entrySet()) {
            assertEquals(List.of(entry.getValue()), lowercaseThen(entry.getKey(), new IrregularPluralTokenFilterFactory()), entry.getKey());
        }
    }

    @Test
    void otherWordsAreLeftAlone() throws IOException {
        assertEquals(List.of("wolf", "leaf", "mouse", "woman", "menu", "feeting"),
            lowercaseThen("Wolf Leaf Mouse Woman Menu Feeting", new IrregularPluralTokenFilterFactory()));
    }
}
