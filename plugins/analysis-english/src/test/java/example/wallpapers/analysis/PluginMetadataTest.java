package example.wallpapers.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.elasticsearch.plugin.NamedComponent;
import org.elasticsearch.plugin.analysis.TokenFilterFactory;
import org.junit.jupiter.api.Test;

/** Checks named_components.json and the stable plugin descriptor against the compiled classes. */
class PluginMetadataTest {

    private static final String EXTENSIBLE = "org.elasticsearch.plugin.analysis.TokenFilterFactory";

    private static final Map<String, String> EXPECTED = Map.of(
        "wpc_english_possessive", EnglishPossessiveTokenFilterFactory.class.getName(),
        "wpc_english_stop", EnglishStopTokenFilterFactory.class.getName(),
        "wpc_kstem", KStemTokenFilterFactory.class.getName(),
        "wpc_porter_stem", PorterStemTokenFilterFactory.class.getName(),
        "wpc_ascii_folding", AsciiFoldingTokenFilterFactory.class.getName(),
        "wpc_american_spelling", AmericanSpellingTokenFilterFactory.class.getName(),
        "wpc_english_irregular", IrregularPluralTokenFilterFactory.class.getName(),
        "wpc_title_head", TitleHeadTokenFilterFactory.class.getName(),
        "wpc_title_subject", TitleSubjectTokenFilterFactory.class.getName());

    private static Path metadataDir() {
        String dir = System.getProperty("plugin.metadata.dir", "src/main/plugin-metadata");
        return Path.of(dir);
    }

    /** Reads {"extensible": {"name": "class", ...}} with exactly one extensible. */
    private static Map<String, String> readNamedComponents() throws IOException {
        String json = Files.readString(metadataDir().resolve("named_components.json"), StandardCharsets.UTF_8);
        Matcher outer = Pattern.compile("^\\s*\\{\\s*\"([^\"]+)\"\\s*:\\s*\\{([^{}]*)\\}\\s*\\}\\s*$", Pattern.DOTALL)
            .matcher(json);
        assertTrue(outer.matches(), "named_components.json must be one object keyed by the extensible interface");
        assertEquals(EXTENSIBLE, outer.group(1));
        Map<String, String> components = new TreeMap<>();
        Matcher entry = Pattern.compile("\\s*\"([^\"]+)\"\\s*:\\s*\"([^\"]+)\"\\s*(,|$)").matcher(outer.group(2));
        int end = 0;
        while (entry.find() && entry.start() == end) {
            assertEquals(null, components.put(entry.group(1), entry.group(2)), "duplicate name " + entry.group(1));
            end = entry.end();
        }
        assertEquals(outer.group(2).length(), end, "unparsed text in named_components.json");
        return components;
    }

    /** All concrete TokenFilterFactory classes compiled from src/main/java, by annotation name. */
    private static Map<String, String> scanCompiledFactories() throws IOException, URISyntaxException {
        Path classes = Path.of(EnglishStopTokenFilterFactory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, String> found = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
                name = name.substring(0, name.length() - ".class".length());
                Class<?> type;
                try {
                    type = Class.forName(name, false, PluginMetadataTest.class.getClassLoader());
                } catch (ClassNotFoundException e) {
                    throw new AssertionError(e);
                }
                if (TokenFilterFactory.class.isAssignableFrom(type)
                    && type.isInterface() == false
                    && Modifier.isAbstract(type.getModifiers()) == false) {
                    NamedComponent named = type.getAnnotation(NamedComponent.class);
                    assertNotNull(named, type + " implements TokenFilterFactory but has no @NamedComponent");
                    assertEquals(null, found.put(named.value(), type.getName()), "duplicate name " + named.value());
                }
            }
        }
        return found;
    }

    @Test
    void namedComponentsListsEveryFactory() throws Exception {
        Map<String, String> json = readNamedComponents();
        assertEquals(new TreeMap<>(EXPECTED), json);
        assertEquals(json, scanCompiledFactories());
    }

    @Test
    void eachFactoryCarriesItsAnnotationAndCanBeBuiltLikeElasticsearchDoes() throws Exception {
        for (Map.Entry<String, String> e : readNamedComponents().entrySet()) {
            Class<?> type = Class.forName(e.getValue());
            NamedComponent named = type.getAnnotation(NamedComponent.class);
            assertNotNull(named, type + " lacks @NamedComponent");
            assertEquals(e.getKey(), named.value());
            assertTrue(TokenFilterFactory.class.isAssignableFrom(type));
            assertTrue(Modifier.isPublic(type.getModifiers()));
            // Elasticsearch requires exactly one public constructor; ours take no arguments.
            assertEquals(1, type.getConstructors().length);
            assertEquals(0, type.getConstructors()[0].getParameterCount());
            TokenFilterFactory factory = (TokenFilterFactory) type.getConstructors()[0].newInstance();
            // Nameable.name() reads the annotation too.
            assertEquals(e.getKey(), factory.name());
        }
    }

    @Test
    void descriptorUsesOnlyStablePluginKeys() throws IOException {
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(metadataDir().resolve("stable-plugin-descriptor.properties"))) {
            props.load(reader);
        }
        assertEquals(Set.of("description", "version", "name", "java.version", "elasticsearch.version"), props.stringPropertyNames());
        assertEquals("analysis-english", props.getProperty("name"));
        assertEquals("8.19.7", props.getProperty("elasticsearch.version"));
        assertEquals("17", props.getProperty("java.version"));
        assertEquals("${project.version}", props.getProperty("version"), "filled in by the assembly");
        assertFalse(props.getProperty("description").isBlank());
    }
}
