package example.wallpapers.analysis;

import java.io.IOException;
import java.util.List;

import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Keeps the head of a title: the last of its words before the first word that begins a setting,
 * the noun the words before it describe. A title names its subject first and where or when it
 * stands after ("Castle beyond the Mountains", "Kitten in the Rain"), and its subject's last word
 * is what it is ("Snow Leopard" is a leopard, "Midnight Blue Roadster" a roadster, "Mountain
 * Range" a range). "of" begins no setting: what follows it is often what is pictured ("Field of
 * Sunflowers": sunflowers). {@link TitleSubjectFilter} keeps every word before the setting.
 *
 * <p>The words are lower case, so put {@code lowercase} before this filter. The rest of the stream
 * is read through and dropped, so the tokenizer ends where the text does.
 */
final class TitleHeadFilter extends TokenFilter {

    private static final CharArraySet SETTING_WORDS = CharArraySet.unmodifiableSet(new CharArraySet(List.of(
        "above", "across", "after", "against", "along", "amid", "among", "around", "at", "before",
        "behind", "below", "beneath", "beside", "between", "beyond", "by", "during", "from", "in",
        "inside", "into", "near", "off", "on", "outside", "over", "past", "through", "toward",
        "towards", "under", "underneath", "upon", "with", "within"), false));

    /** Whether the current token begins a setting. */
    static boolean beginsSetting(CharTermAttribute term) {
        return SETTING_WORDS.contains(term.buffer(), 0, term.length());
    }

    /** Reads the rest of a stream through, dropping it. */
    static void readThrough(TokenStream input) throws IOException {
        while (input.incrementToken()) {
            // dropped
        }
    }

    private final CharTermAttribute termAtt = addAttribute(CharTermAttribute.class);
    private boolean done;

    TitleHeadFilter(TokenStream input) {
        super(input);
    }

    @Override
    public boolean incrementToken() throws IOException {
        if (done) {
            return false;
        }
        done = true;
        State head = null;
        while (input.incrementToken()) {
            if (beginsSetting(termAtt)) {
                readThrough(input);
                break;
            }
            head = captureState();
        }
        if (head == null) {
            return false;
        }
        restoreState(head);
        return true;
    }

    @Override
    public void reset() throws IOException {
        super.reset();
        done = false;
    }
}
