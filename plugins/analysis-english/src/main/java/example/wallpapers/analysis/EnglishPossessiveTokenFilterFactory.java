package example.wallpapers.analysis;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.elasticsearch.plugin.NamedComponent;
import org.elasticsearch.plugin.analysis.TokenFilterFactory;

/**
 * {@code wpc_english_possessive}: removes a trailing {@code 's} (also {@code 'S} and the
 * typographic apostrophe) from tokens, e.g. {@code galaxy's -> galaxy}.
 *
 * <p>Possessive removal is a (very light) stemmer, so it is deliberately not applied in
 * {@link #normalize(TokenStream)}: multi-term queries keep their terms as typed.
 */
@NamedComponent("wpc_english_possessive")
public class EnglishPossessiveTokenFilterFactory implements TokenFilterFactory {

    @Override
    public TokenStream create(TokenStream tokenStream) {
        return new EnglishPossessiveFilter(tokenStream);
    }
}
