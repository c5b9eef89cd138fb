package example.wallpapers.analysis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;

import org.junit.jupiter.api.Test;

/** The word lists' grammar, the same cases as the API's reader (test/unit/infra/word-lists.test.ts). */
class WordListGrammarTest {

    private static String[][] parse(String text) throws IOException {
        return WordMapFilter.parseWords(new BufferedReader(new StringReader(text)), "spellings");
    }

    @Test
    void readsPairsSkippingBlankLinesAndComments() throws IOException {
        assertArrayEquals(
            new String[][] { { "mice", "mouse" }, { "geese", "goose" } },
            parse("# plurals\nmice mouse\n\n  geese\tgoose  \n  # more\n"));
    }

    @Test
    void endsLinesAtCrCrlfAndLf() throws IOException {
        assertArrayEquals(
            new String[][] { { "mice", "mouse" }, { "geese", "goose" }, { "feet", "foot" } },
            parse("mice mouse\rgeese goose\r\n# note\r\n\tfeet\t foot \n"));
    }

    @Test
    void refusesWhatJavaAndJavaScriptWouldReadDifferently() {
        for (String line : new String[] {
            "colour color\u00a0", "\ufeffcolour color", "\ufeff# comment", "grey\u00a0gray", "grey\u3000gray", "caf\u00e9 cafe",
            "Mice mouse", "mice mouse extra", "mice"
        }) {
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> parse(line + "\n"), line);
            assertTrue(refused.getMessage().startsWith("spellings, line 1: "), refused.getMessage());
        }
    }
}
