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
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    // A list's grammar, the API's too (src/infra/word-lists.ts): a line is blank, a comment, or two
    // words of a-z, separated and surrounded by spaces or tabs only. Anything else (a byte-order
    // mark, a no-break space, a capital, an accent) is refused rather than read one way here and
    // another in the API.
    private static final Pattern SKIPPED = Pattern.compile("[ \\t]*(?:#[\\s\\S]*)?");
    private static final Pattern PAIR = Pattern.compile("[ \\t]*([a-z]+)[ \\t]+([a-z]+)[ \\t]*");

    /**
     * A word list packaged beside this class: a word and what it becomes a line. The project's
     * lists live in {@code thesaurus/}, where the API reads them too, so the index and a query read
     * a word alike.
     */
    static String[][] readWords(String resource) {
        InputStream stream = WordMapFilter.class.getResourceAsStream(resource);
        if (stream == null) {
            throw new IllegalStateException("the word list " + resource + " is not packaged with the plugin");
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            return parseWords(reader, resource);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A list's pairs, in order; a line that breaks the grammar is refused, naming the list and the line. */
    static String[][] parseWords(BufferedReader reader, String name) throws IOException {
        List<String[]> words = new ArrayList<>();
        String line;
        for (int number = 1; (line = reader.readLine()) != null; number++) {
            if (SKIPPED.matcher(line).matches()) {
                continue;
            }
            Matcher pair = PAIR.matcher(line);
            if (!pair.matches()) {
                throw new IllegalStateException(
                    name + ", line " + number + ": a line is two words of a-z, a word and what it becomes, or a # comment: " + line);
            }
            words.add(new String[] { pair.group(1), pair.group(2) });
        }
        return words.toArray(new String[0][]);
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
