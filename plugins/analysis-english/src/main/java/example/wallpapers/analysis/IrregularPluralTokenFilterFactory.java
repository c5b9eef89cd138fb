package example.wallpapers.analysis;

import org.apache.lucene.analysis.TokenStream;
import org.elasticsearch.plugin.NamedComponent;
import org.elasticsearch.plugin.analysis.TokenFilterFactory;

/**
 * {@code wpc_english_irregular}: irregular plurals to their singular ({@code wolves -> wolf},
 * {@code mice -> mouse}) before a stemmer that does not know them. Not applied when normalising
 * multi-term queries: a prefix such as {@code wolv} must stay as typed.
 */
@NamedComponent("wpc_english_irregular")
public class IrregularPluralTokenFilterFactory implements TokenFilterFactory {

    @Override
    public TokenStream create(TokenStream tokenStream) {
        return new IrregularPluralFilter(tokenStream);
    }
}
