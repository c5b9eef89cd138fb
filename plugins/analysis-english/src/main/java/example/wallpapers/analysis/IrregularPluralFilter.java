package example.wallpapers.analysis;

import java.util.Map;

import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.analysis.TokenStream;

/**
 * Replaces irregular English plurals with their singular, from a fixed word list, where the
 * stemmers fall short ({@code wolves} stays {@code wolve} under KStem and becomes {@code wolv}
 * under Porter, while {@code wolf} stays {@code wolf}). Whole lower-case tokens only; put it
 * after {@code lowercase} and before the stemmer.
 */
public final class IrregularPluralFilter extends WordMapFilter {

    /**
     * Plural to singular, all lower case, one pair a line: the project's {@code
     * thesaurus/irregular-plurals.txt}, packaged beside this class. The API reads the same file.
     */
    private static final String[][] WORDS = readWords("irregular-plurals.txt");

    private static final CharArrayMap<char[]> MAP = buildMap(WORDS, "plural");

    public IrregularPluralFilter(TokenStream input) {
        super(input, MAP);
    }

    /** The word list (plural to singular), for documentation and tests. */
    public static Map<String, String> wordList() {
        return asMap(WORDS);
    }
}
