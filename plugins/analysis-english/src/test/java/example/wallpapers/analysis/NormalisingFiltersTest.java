package example.wallpapers.analysis;

import static example.wallpapers.analysis.Chains.LOWERCASE;
import static example.wallpapers.analysis.Chains.lowercaseThen;
import static example.wallpapers.analysis.Chains.normalize;
import static example.wallpapers.analysis.Chains.tokens;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.Test;

class NormalisingFiltersTest {

    @Test
    void possessiveAfterLowercase() throws IOException {
        assertEquals(List.of("galaxy"), lowercaseThen("Galaxy's", new EnglishPossessiveTokenFilterFactory()));
    }

    @Test
    void possessiveBeforeLowercaseAndTypographicApostrophe() throws IOException {
        assertEquals(
            List.of("galaxy", "wolf", "james"),
            tokens("Galaxy's WOLF'S James\u2019s", new EnglishPossessiveTokenFilterFactory(), LOWERCASE));
    }

    @Test
    void possessiveIsNotAppliedInNormalize() throws IOException {
        assertEquals(List.of("galaxy's"), normalize("galaxy's", new EnglishPossessiveTokenFilterFactory()));
    }

    @Test
    void asciiFolding() throws IOException {
        assertEquals(List.of("cafe", "creme"), lowercaseThen("Café Crème", new AsciiFoldingTokenFilterFactory()));
        assertEquals(List.of("naive", "facade", "uber"), lowercaseThen("naïve façade über", new AsciiFoldingTokenFilterFactory()));
    }

    @Test
    void asciiFoldingDoesNotKeepOriginal() throws IOException {
        assertEquals(List.of("creme"), lowercaseThen("crème", new AsciiFoldingTokenFilterFactory()));
    }

    @Test
    void asciiFoldingIsAppliedInNormalize() throws IOException {
        assertEquals(List.of("creme*"), normalize("crème*", new AsciiFoldingTokenFilterFactory()));
    }

    @Test
    void stopWordsNeedLowercaseInput() throws IOException {
        assertEquals(List.of("lighthouses", "night"), lowercaseThen("The lighthouses AT night", new EnglishStopTokenFilterFactory()));
        // The stop set is lower case: without lowercasing, "The" survives.
        assertEquals(List.of("The", "lighthouses", "night"), tokens("The lighthouses at night", new EnglishStopTokenFilterFactory()));
    }

    @Test
    void stopIsNotAppliedInNormalize() throws IOException {
        assertEquals(List.of("the"), normalize("the", new EnglishStopTokenFilterFactory()));
    }
}
