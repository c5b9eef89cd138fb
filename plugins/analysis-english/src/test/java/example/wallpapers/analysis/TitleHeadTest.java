package example.wallpapers.analysis;

import static example.wallpapers.analysis.Chains.lowercaseThen;
import static example.wallpapers.analysis.Chains.normalize;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.junit.jupiter.api.Test;

class TitleHeadTest {

    private static final TitleHeadTokenFilterFactory HEAD = new TitleHeadTokenFilterFactory();

    @Test
    void whenATitleHasASettingThenTheLastWordBeforeItIsKept() throws IOException {
        assertEquals(List.of("castle"), lowercaseThen("Castle beyond the Mountains", HEAD));
        assertEquals(List.of("range"), lowercaseThen("Silent Mountain Range under the Milky Way", HEAD));
        assertEquals(List.of("kitten"), lowercaseThen("Lone Kitten at Dawn", HEAD));
        assertEquals(List.of("girl"), lowercaseThen("Girl WITH an Umbrella", HEAD));
    }

    @Test
    void whenATitleHasNoSettingThenItsLastWordIsKept() throws IOException {
        assertEquals(List.of("leopard"), lowercaseThen("Snow Leopard", HEAD));
        assertEquals(List.of("roadster"), lowercaseThen("Midnight Blue Roadster", HEAD));
        assertEquals(List.of("sunflowers"), lowercaseThen("Field of Sunflowers", HEAD));
        assertEquals(List.of("controller"), lowercaseThen("Low-Poly Controller", HEAD));
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
            List<String> kept = new ArrayList<>();
            while (stream.incrementToken()) {
                kept.add(stream.getAttribute(CharTermAttribute.class).toString());
            }
            stream.end();
            assertEquals(title.length(), stream.getAttribute(OffsetAttribute.class).endOffset(), "the tokenizer ends where the text does");
            stream.close();
            assertEquals(List.of(title.startsWith("Kitten") ? "kitten" : "range"), kept, "a head ended before is not carried over");
        }
    }

    @Test
    void whenTheWholeSubjectIsAskedThenEveryWordBeforeTheSettingIsKept() throws IOException {
        TitleSubjectTokenFilterFactory subject = new TitleSubjectTokenFilterFactory();
        assertEquals(List.of("castle"), lowercaseThen("Castle beyond the Mountains", subject));
        assertEquals(List.of("silent", "mountain", "range"), lowercaseThen("Silent Mountain Range under the Milky Way", subject));
        assertEquals(List.of("alpine", "lake"), lowercaseThen("Alpine Lake", subject));
        assertEquals(List.of("in", "the", "rain"), lowercaseThen("In the Rain", subject), "a title that begins with its setting is its own subject");
    }

    @Test
    void whenNormalisingAQueryTermThenItIsKept() throws IOException {
        assertEquals(List.of("in"), normalize("in", HEAD));
    }
}
