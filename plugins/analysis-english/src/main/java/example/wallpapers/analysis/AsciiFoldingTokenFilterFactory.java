package example.wallpapers.analysis;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.elasticsearch.plugin.NamedComponent;
import org.elasticsearch.plugin.analysis.TokenFilterFactory;

/**
 * {@code wpc_ascii_folding}: folds letters, digits and symbols outside Basic Latin to
 * their ASCII equivalents ({@code café -> cafe}); the original token is not kept.
 *
 * <p>Folding is a one-to-one normalisation, so it is also applied to the terms of
 * multi-term queries (prefix, wildcard, fuzzy, ...).
 */
@NamedComponent("wpc_ascii_folding")
public class AsciiFoldingTokenFilterFactory implements TokenFilterFactory {

    @Override
    public TokenStream create(TokenStream tokenStream) {
        return new ASCIIFoldingFilter(tokenStream, false);
    }

    @Override
    public TokenStream normalize(TokenStream tokenStream) {
        return create(tokenStream);
    }
}
