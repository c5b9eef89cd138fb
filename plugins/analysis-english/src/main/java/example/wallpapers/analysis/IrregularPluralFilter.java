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

    private static final CharArrayMap<char[]> MAP = buildMap(WORDS, "plural");

    public IrregularPluralFilter(TokenStream input) {
        super(input, MAP);
    }

    /** The built-in word list (plural to singular), for documentation and tests. */
    public static Map<String, String> wordList() {
        return asMap(WORDS);
    }
}
