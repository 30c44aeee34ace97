package io.pmedia.graphics.lottie;

import java.io.IOException;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Lottie (Bodymovin JSON, as After Effects exports it) checked and personalized before the engine draws it.
 * <p>
 * A file comes from a vendor, so it is treated as hostile: every limit below is checked before anything is drawn,
 * and each refusal is a {@link LottieException} with the JSON pointer of what is at fault. The limits are set well
 * above what a designer's export needs (After Effects templates run to a few hundred layers and a few MiB with
 * embedded images) and low enough that one file cannot take a render worker's memory or time: Skottie builds a
 * scene-graph node for every layer of every precomp instance, so layers are counted as they are instantiated.
 * The engine never fetches anything: an image is embedded as a {@code data:} URI or given by the template.
 */
public final class LottieFile {

    /** The largest file accepted, 8 MiB: checked on the bytes, before any parsing (a 50 MB file costs nothing). */
    public static final int MAX_BYTES = 8 * 1024 * 1024;
    /** Layers as Skottie instantiates them: the main composition's plus each precomp's per reference to it. */
    public static final int MAX_LAYERS = 2_000;
    /**
     * Shapes as Skottie draws them: every path, fill, stroke and modifier of every shape layer, per precomp
     * instance, a repeater's copies multiplying what it repeats (a frame's cost grows with it, not with the bytes).
     */
    public static final int MAX_SHAPES = 20_000;
    /** A repeater's copies, and a polystar's points. */
    public static final int MAX_COPIES = 1_000;
    /** How deep precomps may nest in one another (a layer of the main composition is at depth 0). */
    public static final int MAX_PRECOMP_DEPTH = 16;
    /** JSON nesting, enforced by the parser: deep arrays are refused before they reach any recursion. */
    public static final int MAX_NESTING = 256;
    /** Canvas sides, as the engine's scenes. */
    public static final int MAX_SIDE = 8192;
    /** The longest animation, {@code (op - ip) / fr}: ten minutes. */
    public static final double MAX_SECONDS = 600;
    /** The longest replacement text, in UTF-16 units: a name or a sentence, with room for a paragraph. */
    public static final int MAX_TEXT = 5_000;
    /** The largest image given to {@link #personalize} (before base64), 4 MiB. */
    public static final int MAX_IMAGE_BYTES = 4 * 1024 * 1024;
    /** Warnings listed one by one; past this a last line counts the rest. */
    public static final int MAX_WARNINGS = 50;

    static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_NESTING)
                    .maxStringLength(MAX_BYTES)
                    .maxNumberLength(64)
                    .build())
            .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private LottieFile() {
    }

    /**
     * Parses and checks a Lottie file.
     *
     * @throws LottieException when the file is malformed, over a limit, or refers to what the engine will not load
     */
    public static LottieCheck check(byte[] json) {
        ObjectNode root = parse(json);
        Upgrades.apply(root);
        return new FileChecker(root).check();
    }

    /**
     * The JSON the engine draws: the file checked, upgraded as lottie-web upgrades old Bodymovin files, its slots
     * resolved (each property that names a slot takes the slot's value, or the replacement given here),
     * personalized, its keyframed paths of changing vertex counts made one count ({@code PathCounts}: Skottie
     * drops them, lottie-web plays them), and its open masks made masks that do nothing ({@code OpenMasks}: Skottie
     * fills them as if closed, After Effects and lottie-web do not), and the grouping alignment of text drawn with
     * embedded glyphs moved into a copy of its glyphs ({@code TextAnchors}: Skottie turns such letters about their
     * baseline).
     *
     * @param texts text by a text layer's name ({@code nm}) or a text slot's id: the text of every keyframe of the
     *        layer's text document; at most {@link #MAX_TEXT} characters
     * @param colors {@code #rrggbb} or {@code #rrggbbaa} by colour slot id
     * @param images PNG or JPEG bytes by image asset id (or image slot id), embedded as {@code data:} URIs
     * @throws LottieException when the file is refused by {@link #check}, a key names nothing in the file, or a
     *         value is malformed (its pointer is then the property's or the asset's)
     */
    public static String personalize(byte[] json, Map<String, String> texts, Map<String, String> colors,
            Map<String, byte[]> images) {
        ObjectNode root = parse(json);
        Upgrades.apply(root);
        new FileChecker(root).check();
        new Personalizer(root).apply(texts, colors, images);
        PathCounts.apply(root);
        OpenMasks.apply(root);
        TextAnchors.apply(root);
        try {
            return JSON.writeValueAsString(root);
        } catch (IOException e) {
            throw new IllegalStateException("a checked tree did not serialize", e);
        }
    }

    static ObjectNode parse(byte[] json) {
        if (json.length > MAX_BYTES) {
            throw new LottieException("", "the file is " + json.length + " bytes; at most " + MAX_BYTES);
        }
        JsonNode root;
        try (JsonParser parser = JSON.createParser(json)) {
            try {
                root = JSON.readTree(parser);
            } catch (StreamConstraintsException e) {
                throw new LottieException(parser.getParsingContext().pathAsPointer().toString(),
                        "over a parser limit (" + MAX_NESTING + " levels of nesting, " + MAX_BYTES
                                + " characters a string): " + e.getOriginalMessage());
            } catch (StreamReadException e) {
                throw new LottieException(parser.getParsingContext().pathAsPointer().toString(),
                        "not valid JSON (NaN and Infinity are not JSON numbers): " + e.getOriginalMessage());
            }
        } catch (IOException e) {
            throw new LottieException("", "not readable as JSON: " + e.getMessage());
        }
        if (!(root instanceof ObjectNode object)) {
            throw new LottieException("", "a Lottie file is a JSON object");
        }
        return object;
    }

    /** A key as one step of a JSON pointer (RFC 6901: {@code ~} and {@code /} escaped). */
    static String step(String key) {
        return "/" + key.replace("~", "~0").replace("/", "~1");
    }
}
