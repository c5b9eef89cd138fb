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
 * Replaces irregular English plurals with their singular, from a fixed word list, where the
 * stemmers fall short ({@code wolves} stays {@code wolve} under KStem and becomes {@code wolv}
 * under Porter, while {@code wolf} stays {@code wolf}). Whole lower-case tokens only; put it
 * after {@code lowercase} and before the stemmer.
 */
public final class IrregularPluralFilter extends TokenFilter {

    /** Plural to singular, all lower case. */
    private static final String[][] WORDS = {
        // -ves -> -f / -fe
        { "wolves", "wolf" }, { "leaves", "leaf" }, { "shelves", "shelf" }, { "knives", "knife" },
        { "lives", "life" }, { "halves", "half" }, { "calves", "calf" }, { "elves", "elf" },
        { "scarves", "scarf" }, { "loaves", "loaf" }, { "thieves", "thief" }, { "wives", "wife" },
        { "sheaves", "sheaf" }, { "hooves", "hoof" }, { "dwarves", "dwarf" }, { "wharves", "wharf" },
        // vowel change and -en
        { "mice", "mouse" }, { "geese", "goose" }, { "feet", "foot" }, { "teeth", "tooth" },
        { "men", "man" }, { "women", "woman" }, { "children", "child" }, { "oxen", "ox" },
        { "people", "person" },
        // Latin and Greek
        { "cacti", "cactus" }, { "fungi", "fungus" }, { "nebulae", "nebula" }, { "antennae", "antenna" },
        { "crises", "crisis" }, { "oases", "oasis" }, { "phenomena", "phenomenon" },
        { "criteria", "criterion" }, { "bacteria", "bacterium" }, { "larvae", "larva" },
        { "vertebrae", "vertebra" }, { "stimuli", "stimulus" }, { "radii", "radius" },
    };

    private static final CharArrayMap<char[]> MAP = buildMap();

    private final CharTermAttribute termAtt = addAttribute(CharTermAttribute.class);

    public IrregularPluralFilter(TokenStream input) {
        super(input);
    }

    @Override
    public boolean incrementToken() throws IOException {
        if (input.incrementToken() == false) {
            return false;
        }
        char[] singular = MAP.get(termAtt.buffer(), 0, termAtt.length());
        if (singular != null) {
            termAtt.copyBuffer(singular, 0, singular.length);
        }
        return true;
    }

    /** The built-in word list (plural to singular), for documentation and tests. */
    public static Map<String, String> wordList() {
        Map<String, String> words = new LinkedHashMap<>();
        for (String[] pair : WORDS) {
            words.put(pair[0], pair[1]);
        }
        return Collections.unmodifiableMap(words);
    }

    private static CharArrayMap<char[]> buildMap() {
        CharArrayMap<char[]> map = new CharArrayMap<>(WORDS.length, false);
        for (String[] pair : WORDS) {
            if (map.put(pair[0], pair[1].toCharArray()) != null) {
                throw new IllegalStateException("duplicate plural: " + pair[0]);
            }
        }
        return CharArrayMap.unmodifiableMap(map);
    }
}
