package example.wallpapers.analysis;

import java.util.Map;

import org.apache.lucene.analysis.CharArrayMap;
import org.apache.lucene.analysis.TokenStream;

/**
 * Replaces British spellings with American ones using a fixed, built-in word list.
 *
 * <p>Only exact whole-token matches are rewritten (there are no suffix rules, so words
 * such as {@code four}, {@code hour} or {@code pour} never change). Matching is case
 * sensitive against lower-case entries. Only the term text changes; offsets, positions,
 * type and flags are kept.
 */
public final class AmericanSpellingFilter extends WordMapFilter {

    /** British spelling to American spelling, all lower case. */
    private static final String[][] WORDS = {
        // -our -> -or
        { "colour", "color" }, { "colours", "colors" }, { "coloured", "colored" },
        { "colouring", "coloring" }, { "colourful", "colorful" }, { "colourless", "colorless" },
        { "harbour", "harbor" }, { "harbours", "harbors" }, { "harboured", "harbored" },
        { "neighbour", "neighbor" }, { "neighbours", "neighbors" },
        { "neighbourhood", "neighborhood" }, { "neighbourhoods", "neighborhoods" },
        { "flavour", "flavor" }, { "flavours", "flavors" }, { "flavoured", "flavored" },
        { "favourite", "favorite" }, { "favourites", "favorites" },
        { "favour", "favor" }, { "favours", "favors" },
        { "honour", "honor" }, { "honours", "honors" }, { "honoured", "honored" },
        { "vapour", "vapor" }, { "vapours", "vapors" },
        { "armour", "armor" }, { "armoured", "armored" },
        { "arbour", "arbor" }, { "arbours", "arbors" },
        { "odour", "odor" }, { "odours", "odors" },
        { "rumour", "rumor" }, { "rumours", "rumors" },
        { "glamour", "glamor" },
        { "splendour", "splendor" },
        { "valour", "valor" },
        { "parlour", "parlor" }, { "parlours", "parlors" },
        { "labour", "labor" }, { "labours", "labors" },
        // -re -> -er
        { "centre", "center" }, { "centres", "centers" },
        { "theatre", "theater" }, { "theatres", "theaters" },
        { "metre", "meter" }, { "metres", "meters" },
        { "sceptre", "scepter" }, { "sceptres", "scepters" },
        { "sombre", "somber" },
        { "fibre", "fiber" }, { "fibres", "fibers" },
        { "lustre", "luster" },
        // -ise -> -ize
        { "realise", "realize" }, { "realised", "realized" }, { "realises", "realizes" },
        { "realising", "realizing" },
        { "organise", "organize" }, { "organised", "organized" }, { "organises", "organizes" },
        { "organising", "organizing" },
        // doubled l
        { "travelling", "traveling" }, { "travelled", "traveled" },
        { "traveller", "traveler" }, { "travellers", "travelers" },
        { "jewellery", "jewelry" },
        // -ou- -> -o-
        { "mould", "mold" }, { "moulds", "molds" }, { "mouldy", "moldy" },
        { "plough", "plow" }, { "ploughs", "plows" },
        { "moustache", "mustache" }, { "moustaches", "mustaches" },
        // -ogue -> -og, -mme -> -m
        { "catalogue", "catalog" }, { "catalogues", "catalogs" },
        { "programme", "program" }, { "programmes", "programs" },
        // single words
        { "grey", "gray" }, { "greys", "grays" },
        { "aeroplane", "airplane" }, { "aeroplanes", "airplanes" },
        { "tyre", "tire" }, { "tyres", "tires" },
        { "kerb", "curb" }, { "kerbs", "curbs" },
        { "storey", "story" }, { "storeys", "stories" },
        { "cosy", "cozy" },
        { "pyjamas", "pajamas" },
        // deliberately absent (same in both): autumn, dialogue, whisky
    };

    private static final CharArrayMap<char[]> MAP = buildMap(WORDS, "British spelling");

    public AmericanSpellingFilter(TokenStream input) {
        super(input, MAP);
    }

    /** The built-in word list (British to American), for documentation and tests. */
    public static Map<String, String> wordList() {
        return asMap(WORDS);
    }
}
