package example.wallpapers.analysis;

import org.apache.lucene.analysis.TokenStream;
import org.elasticsearch.plugin.NamedComponent;
import org.elasticsearch.plugin.analysis.TokenFilterFactory;

/**
 * {@code wpc_american_spelling}: rewrites common British spellings to American ones
 * from a fixed word list ({@code colour -> color}, {@code harbours -> harbors}). Only
 * whole, lower-case tokens are matched; put {@code lowercase} before this filter.
 *
 * <p>The rewrite is a one-to-one word replacement, so it is also applied to the terms of
 * multi-term queries; a partial term such as the prefix {@code colou} is left alone.
 */
@NamedComponent("wpc_american_spelling")
public class AmericanSpellingTokenFilterFactory implements TokenFilterFactory {

    @Override
    public TokenStream create(TokenStream tokenStream) {
        return new AmericanSpellingFilter(tokenStream);
    }

    @Override
    public TokenStream normalize(TokenStream tokenStream) {
        return create(tokenStream);
    }
}
