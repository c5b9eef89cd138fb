package example.wallpapers.analysis;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * Replaces whole tokens found in a fixed word list with their mapped form, leaving every other
 * token as it is. The word lists (British spellings, irregular plurals) are its subclasses.
 */
abstract class WordMapFilter extends TokenFilter {

    private final CharArrayMap<char[]> map;
    private final CharTermAttribute termAtt = addAttribute(CharTermAttribute.class);

    protected WordMapFilter(TokenStream input, CharArrayMap<char[]> map) {
        super(input);
        this.map = map;
    }

    @Override
    public final boolean incrementToken() throws IOException {
        if (input.incrementToken() == false) {
            return false;
        }
        char[] mapped = map.get(termAtt.buffer(), 0, termAtt.length());
        if (mapped != null) {
            termAtt.copyBuffer(mapped, 0, mapped.length);
        }
        return true;
    }

    /** The lookup of a word list of {from, to} pairs; a word listed twice is a mistake in the list. */
    static CharArrayMap<char[]> buildMap(String[][] words, String what) {
        CharArrayMap<char[]> map = new CharArrayMap<>(words.length, false);
        for (String[] pair : words) {
            if (map.put(pair[0], pair[1].toCharArray()) != null) {
                throw new IllegalStateException("duplicate " + what + ": " + pair[0]);
            }
        }
        return CharArrayMap.unmodifiableMap(map);
    }

    /** A word list as an ordered map, for documentation and tests. */
    static Map<String, String> asMap(String[][] words) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String[] pair : words) {
            map.put(pair[0], pair[1]);
        }
        return Collections.unmodifiableMap(map);
    }
}
