package example.wallpapers.analysis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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

    /**
     * A word list packaged beside this class: a word and what it becomes a line, in lower case;
     * blank lines and lines starting with {@code #} are skipped. The project's lists live in
     * {@code thesaurus/}, where the API reads them too, so the index and a query read a word alike.
     */
    static String[][] readWords(String resource) {
        InputStream stream = WordMapFilter.class.getResourceAsStream(resource);
        if (stream == null) {
            throw new IllegalStateException("the word list " + resource + " is not packaged with the plugin");
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            List<String[]> words = new ArrayList<>();
            String line;
            while ((line = reader.readLine()) != null) {
                String trimmed = line.trim();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                String[] pair = trimmed.split("\\s+");
                if (pair.length != 2 || !trimmed.equals(trimmed.toLowerCase(Locale.ROOT))) {
                    throw new IllegalStateException(resource + ": a line must be a word and what it becomes, in lower case: " + line);
                }
                words.add(pair);
            }
            return words.toArray(new String[0][]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
