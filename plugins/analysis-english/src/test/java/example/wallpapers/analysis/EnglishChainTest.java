package example.wallpapers.analysis;

import static example.wallpapers.analysis.Chains.englishChain;
import static example.wallpapers.analysis.Chains.tokens;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.Test;

/** standard tokenizer + possessive, lowercase, folding, american spelling, stop, irregular plurals, kstem. */
class EnglishChainTest {

    @Test
    void stopWordsAndPlurals() throws IOException {
        assertEquals(List.of("lighthouse", "night"), tokens("the lighthouses at night", englishChain()));
    }

    @Test
    void possessiveFoldingSpellingAndStemming() throws IOException {
        assertEquals(List.of("galaxy", "cafe", "creme", "harbor", "color"),
            tokens("Galaxy's Café Crème HARBOURS colour", englishChain()));
        // kstem knows "colors" as a dictionary word and does not reduce it (it does reduce "harbors").
        assertEquals(List.of("colors"), tokens("colours", englishChain()));
    }

    @Test
    void exampleSentence() throws IOException {
        // "were" is not in Lucene's English stop set; kstem keeps "running"; "wolves" is an irregular plural.
        assertEquals(List.of("galaxy", "wolf", "were", "running", "past", "harbor", "cafe"),
            tokens("The Galaxy's wolves were running past the harbours of the Café", englishChain()));
    }
}
