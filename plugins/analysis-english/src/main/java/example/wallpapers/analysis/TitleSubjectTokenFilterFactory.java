package example.wallpapers.analysis;

import org.apache.lucene.analysis.TokenStream;
import org.elasticsearch.plugin.NamedComponent;
import org.elasticsearch.plugin.analysis.TokenFilterFactory;

/**
 * {@code wpc_title_subject}: keeps a title's words before the first word that begins a setting,
 * its subject ({@link TitleSubjectFilter}). Put {@code lowercase} before it.
 *
 * <p>Not applied in {@link #normalize(TokenStream)}: normalisation must keep the single query
 * term, never remove it.
 */
@NamedComponent("wpc_title_subject")
public class TitleSubjectTokenFilterFactory implements TokenFilterFactory {

    @Override
    public TokenStream create(TokenStream tokenStream) {
        return new TitleSubjectFilter(tokenStream);
    }
}
