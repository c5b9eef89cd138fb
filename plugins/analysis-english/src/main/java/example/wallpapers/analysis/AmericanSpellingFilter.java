package example.wallpapers.analysis;

import java.util.Map;

import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.analysis.TokenStream;

/**
 * Replaces British spellings with American ones from a fixed word list.
 *
 * <p>Only exact whole-token matches are rewritten (there are no suffix rules, so words
 * such as {@code four}, {@code hour} or {@code pour} never change). Matching is case
 * sensitive against lower-case entries. Only the term text changes; offsets, positions,
 * type and flags are kept.
 */
public final class AmericanSpellingFilter extends WordMapFilter {

    /**
     * British spelling to American spelling, all lower case, one pair a line: the project's {@code
     * thesaurus/british-spellings.txt}, packaged beside this class. The API reads the same file.
     */
    private static final String[][] WORDS = readWords("british-spellings.txt");

    private static final CharArrayMap<char[]> MAP = buildMap(WORDS, "British spelling");

    public AmericanSpellingFilter(TokenStream input) {
        super(input, MAP);
    }

    /** The word list (British to American), for documentation and tests. */
    public static Map<String, String> wordList() {
        return asMap(WORDS);
    }
}
