package example.wallpapers.analysis;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.KStemFilter;
import org.elasticsearch.plugin.NamedComponent;
import org.elasticsearch.plugin.analysis.TokenFilterFactory;

/**
 * {@code wpc_kstem}: Krovetz stemmer (dictionary based, produces real words:
 * {@code galaxies -> galaxy}, {@code running -> run}). Expects lower-cased input.
 * Stemming is not applied in {@link #normalize(TokenStream)}.
 */
@NamedComponent("wpc_kstem")
public class KStemTokenFilterFactory implements TokenFilterFactory {

    @Override
    public TokenStream create(TokenStream tokenStream) {
        return new KStemFilter(tokenStream);
    }
}
