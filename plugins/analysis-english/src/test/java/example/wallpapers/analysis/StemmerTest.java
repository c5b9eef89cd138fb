package example.wallpapers.analysis;

import static example.wallpapers.analysis.Chains.lowercaseThen;
import static example.wallpapers.analysis.Chains.normalize;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StemmerTest {

    @ParameterizedTest(name = "kstem: {0} -> {1}")
    @CsvSource({
        "galaxies, galaxy",
        "libraries, library",
        "foxes, fox",
        "puppies, puppy",
        "cities, city",
        "Lighthouses, lighthouse",
        "harbors, harbor" })
    void kstem(String input, String expected) throws IOException {
        assertEquals(List.of(expected), lowercaseThen(input, new KStemTokenFilterFactory()));
    }

    /**
     * KStem leaves a word alone when its dictionary already knows it, and only knows a few
     * irregular plurals. These are real Lucene 9.12.2 results (same class Elasticsearch's
     * own kstem filter wraps), pinned so a change of behaviour is noticed.
     */
    @ParameterizedTest(name = "kstem keeps: {0} -> {1}")
    @CsvSource({
        "wolves, wolve",
        "running, running",
        "runs, runs",
        "colors, colors",
        "were, were" })
    void kstemLimits(String input, String expected) throws IOException {
        assertEquals(List.of(expected), lowercaseThen(input, new KStemTokenFilterFactory()));
    }

    @ParameterizedTest(name = "porter: {0} -> {1}")
    @CsvSource({
        "galaxies, galaxi",
        "libraries, librari",
        "foxes, fox",
        "running, run",
        "runs, run",
        "wolves, wolv",
        "colors, color",
        "puppies, puppi",
        "cities, citi",
        "harbors, harbor",
        "connection, connect" })
    void porter(String input, String expected) throws IOException {
        assertEquals(List.of(expected), lowercaseThen(input, new PorterStemTokenFilterFactory()));
    }

    @Test
    void stemmersDoNotStemInNormalize() throws IOException {
        assertEquals(List.of("galaxies"), normalize("galaxies", new KStemTokenFilterFactory()));
        assertEquals(List.of("galaxies"), normalize("galaxies", new PorterStemTokenFilterFactory()));
    }
}
