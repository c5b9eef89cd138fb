package example.wallpapers.analysis;

import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.elasticsearch.plugin.NamedComponent;
import org.elasticsearch.plugin.analysis.TokenFilterFactory;

/**
 * {@code wpc_english_stop}: drops Lucene's English stop words
 * ({@link EnglishAnalyzer#ENGLISH_STOP_WORDS_SET}). The set is case sensitive and
 * lower case, so put {@code lowercase} before this filter.
 *
 * <p>Not applied in {@link #normalize(TokenStream)}: normalisation must keep the single
 * query term, never remove it.
 */
@NamedComponent("wpc_english_stop")
public class EnglishStopTokenFilterFactory implements TokenFilterFactory {

    @Override
    public TokenStream create(TokenStream tokenStream) {
        return new StopFilter(tokenStream, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
    }
}
