package example.wallpapers.analysis;

import static example.wallpapers.analysis.Chains.lowercaseThen;
import static example.wallpapers.analysis.Chains.normalize;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;

import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.junit.jupiter.api.Test;

class TitleHeadTest {

    private static final TitleHeadTokenFilterFactory HEAD = new TitleHeadTokenFilterFactory();

    @Test
    void whenATitleHasASettingThenOnlyTheWordsBeforeItAreKept() throws IOException {
        assertEquals(List.of("castle"), lowercaseThen("Castle beyond the Mountains", HEAD));
        assertEquals(List.of("silent", "mountain", "range"), lowercaseThen("Silent Mountain Range under the Milky Way", HEAD));
        assertEquals(List.of("lone", "kitten"), lowercaseThen("Lone Kitten at Dawn", HEAD));
        assertEquals(List.of("girl"), lowercaseThen("Girl WITH an Umbrella", HEAD));
    }

    @Test
    void whenATitleHasNoSettingThenEveryWordIsKept() throws IOException {
        assertEquals(List.of("mountain", "range"), lowercaseThen("Mountain Range", HEAD));
        assertEquals(List.of("field", "of", "sunflowers"), lowercaseThen("Field of Sunflowers", HEAD));
    }

    @Test
    void whenTheTitleBeginsWithASettingWordThenItsHeadIsEmpty() throws IOException {
        assertEquals(List.of(), lowercaseThen("In the Rain", HEAD));
    }

    @Test
    void whenTheStreamIsReusedThenEachTitleHasItsOwnHead() throws IOException {
        Tokenizer tokenizer = new StandardTokenizer();
        TokenStream stream = new TitleHeadFilter(new LowerCaseFilter(tokenizer));
        for (String title : List.of("Kitten in the Rain", "Misty Mountain Range")) {
            tokenizer.setReader(new StringReader(title));
            stream.reset();
            int kept = 0;
            while (stream.incrementToken()) {
                kept++;
            }
            stream.end();
            assertEquals(title.length(), stream.getAttribute(OffsetAttribute.class).endOffset(), "the tokenizer ends where the text does");
            stream.close();
            assertEquals(title.startsWith("Kitten") ? 1 : 3, kept, "a head ended before is not carried over");
        }
    }

    @Test
    void whenNormalisingAQueryTermThenItIsKept() throws IOException {
        assertEquals(List.of("in"), normalize("in", HEAD));
    }
}
