package example.wallpapers.analysis;

import java.io.IOException;

import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Keeps the subject of a title: every word before the first word that begins a setting
 * ({@link TitleHeadFilter#beginsSetting}), or the whole title when it begins with its setting ("In
 * the Rain"): every title has one, so a field that every document holds is what a query can count
 * on. Lower case first; the rest of the stream is read through and dropped.
 */
final class TitleSubjectFilter extends TokenFilter {

    private final CharTermAttribute termAtt = addAttribute(CharTermAttribute.class);
    private boolean first = true;
    private boolean wholeTitle;
    private boolean ended;

    TitleSubjectFilter(TokenStream input) {
        super(input);
    }

    @Override
    public boolean incrementToken() throws IOException {
        if (ended || input.incrementToken() == false) {
            return false;
        }
        boolean atStart = first;
        first = false;
        if (wholeTitle || TitleHeadFilter.beginsSetting(termAtt) == false) {
            return true;
        }
        if (atStart) {
            wholeTitle = true;
            return true;
        }
        ended = true;
        TitleHeadFilter.readThrough(input);
        return false;
    }

    @Override
    public void reset() throws IOException {
        super.reset();
        first = true;
        wholeTitle = false;
        ended = false;
    }
}
