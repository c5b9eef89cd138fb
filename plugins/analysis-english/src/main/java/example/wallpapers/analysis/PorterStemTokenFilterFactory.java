package example.wallpapers.analysis;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.elasticsearch.plugin.NamedComponent;
import org.elasticsearch.plugin.analysis.TokenFilterFactory;

/**
 * {@code wpc_porter_stem}: the algorithmic Porter stemmer (more aggressive than kstem,
 * stems are not always words: {@code cities -> citi}). Expects lower-cased input.
 * Stemming is not applied in {@link #normalize(TokenStream)}.
 */
@NamedComponent("wpc_porter_stem")
public class PorterStemTokenFilterFactory implements TokenFilterFactory {

    @Override
    public TokenStream create(TokenStream tokenStream) {
        return new PorterStemFilter(tokenStream);
    }
}
