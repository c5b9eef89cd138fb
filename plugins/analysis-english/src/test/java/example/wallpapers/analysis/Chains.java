package example.wallpapers.analysis;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.elasticsearch.plugin.analysis.TokenFilterFactory;

/** Small helpers that run text through a Lucene chain made of our factories. */
final class Chains {

    /** Stand-in for Elasticsearch's core {@code lowercase} filter inside a chain. */
    static final TokenFilterFactory LOWERCASE = LowerCaseFilter::new;

    private Chains() {}

    /** StandardTokenizer, LowerCaseFilter, then the given filters in order. */
    static List<String> lowercaseThen(String text, TokenFilterFactory... filters) throws IOException {
        TokenFilterFactory[] all = new TokenFilterFactory[filters.length + 1];
        all[0] = LOWERCASE;
        System.arraycopy(filters, 0, all, 1, filters.length);
        return tokens(text, all);
    }

    /** StandardTokenizer followed by exactly the given filters, in order. */
    static List<String> tokens(String text, TokenFilterFactory... filters) throws IOException {
        Tokenizer tokenizer = new StandardTokenizer();
        tokenizer.setReader(new StringReader(text));
        TokenStream stream = tokenizer;
        for (TokenFilterFactory filter : filters) {
            stream = filter.create(stream);
        }
        return drain(stream);
    }

    /** Runs a single term through the normalize() path of the given filters, in order. */
    static List<String> normalize(String term, TokenFilterFactory... filters) throws IOException {
        Tokenizer tokenizer = new KeywordTokenizer();
        tokenizer.setReader(new StringReader(term));
        TokenStream stream = tokenizer;
        for (TokenFilterFactory filter : filters) {
            stream = filter.normalize(stream);
        }
        return drain(stream);
    }

    /** The full English chain from the README, minus the tokenizer. */
    static TokenFilterFactory[] englishChain() {
        return new TokenFilterFactory[] {
            new EnglishPossessiveTokenFilterFactory(),
            LOWERCASE,
            new AsciiFoldingTokenFilterFactory(),
            new AmericanSpellingTokenFilterFactory(),
            new EnglishStopTokenFilterFactory(),
            new IrregularPluralTokenFilterFactory(),
            new KStemTokenFilterFactory() };
    }

    private static List<String> drain(TokenStream stream) throws IOException {
        List<String> out = new ArrayList<>();
        CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
        try (stream) {
            stream.reset();
            while (stream.incrementToken()) {
                out.add(term.toString());
            }
            stream.end();
        }
        return out;
    }
}
