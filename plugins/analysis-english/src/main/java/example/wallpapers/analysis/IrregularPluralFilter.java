package example.wallpapers.analysis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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

    static String[][] readWords(String resource) {
        InputStream stream = IrregularPluralFilter.class.getResourceAsStream(resource);
        if (stream == null) {
            throw new IllegalStateException("the word list " + resource + " is not packaged with the plugin");
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            List<String[]> words = new ArrayList<>();
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                String[] pair = line.trim().split("\\s+");
                if (pair.length != 2) {
                    throw new IllegalStateException(resource + ": a line must be a plural and its singular: " + line);
                }
                words.add(pair);
            }
            return words.toArray(new String[0][]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The word list (plural to singular), for documentation and tests. */
    public static Map<String, String> wordList() {
        return asMap(WORDS);
    }
}
