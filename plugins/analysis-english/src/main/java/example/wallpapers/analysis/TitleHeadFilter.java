package example.wallpapers.analysis;

import java.io.IOException;
import java.util.List;

import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Keeps the head of a title: the last of its words before the first word that begins a setting,
 * the noun the words before it describe; or, as its subject, every word before the setting (the
 * whole title when it begins with its setting). A title names its subject first and where or when it
 * stands after ("Castle beyond the Mountains", "Kitten in the Rain"), and its subject's last word
 * is what it is ("Snow Leopard" is a leopard, "Midnight Blue Roadster" a roadster, "Mountain
 * Range" a range). "of" begins no setting: what follows it is often what is pictured ("Field of
 * Sunflowers": sunflowers).
 *
 * <p>The words are lower case, so put {@code lowercase} before this filter. The rest of the stream
 * is read through and dropped, so the tokenizer ends where the text does.
 */
final class TitleHeadFilter extends TokenFilter {

    static final CharArraySet SETTING_WORDS = CharArraySet.unmodifiableSet(new CharArraySet(List.of(
        "above", "across", "after", "against", "along", "amid", "among", "around", "at", "before",
        "behind", "below", "beneath", "beside", "between", "beyond", "by", "during", "from", "in",
        "inside", "into", "near", "off", "on", "outside", "over", "past", "through", "toward",
        "towards", "under", "underneath", "upon", "with", "within"), false));

    private final CharTermAttribute termAtt = addAttribute(CharTermAttribute.class);
    private final boolean wholeSubject;
    private boolean done;
    private boolean started;
    private boolean wholeTitle;

    /** With {@code wholeSubject}, every word before the setting; without, the last of them. */
    TitleHeadFilter(TokenStream input, boolean wholeSubject) {
        super(input);
        this.wholeSubject = wholeSubject;
    }

    @Override
    public boolean incrementToken() throws IOException {
        if (done) {
            return false;
        }
        if (wholeSubject) {
            if (input.incrementToken() == false) {
                done = true;
                return false;
            }
            boolean first = started == false;
            started = true;
            if (wholeTitle || SETTING_WORDS.contains(termAtt.buffer(), 0, termAtt.length()) == false) {
                return true;
            }
            if (first) {
                // A title that begins with its setting ("In the Rain") is its own subject: every title
                // has one, so a field that every document holds is what a query can count on.
                wholeTitle = true;
                return true;
            }
            done = true;
            while (input.incrementToken()) {
                // the setting: read through, kept out of the subject
            }
            return false;
        }
        done = true;
        State head = null;
        while (input.incrementToken()) {
            if (SETTING_WORDS.contains(termAtt.buffer(), 0, termAtt.length())) {
                while (input.incrementToken()) {
                    // the setting: read through, kept out of the head
                }
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
        started = false;
        wholeTitle = false;
    }
}
