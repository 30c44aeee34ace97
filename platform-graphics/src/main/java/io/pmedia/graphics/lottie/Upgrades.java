package io.pmedia.graphics.lottie;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What lottie-web does to a file from an older Bodymovin before it plays it, and Skottie does not (lottie-web's data
 * manager; the versions are the ones it checks), in the layers of the main composition and of every precomp:
 * <ul>
 * <li>before 4.1.9 the colours of shape fills and strokes were 0 to 255, later 0 to 1: divided by 255, static
 * colours and each keyframe's start and end alike (gradients and solids were never stored that way);</li>
 * <li>before 4.4.14 a text layer's document was the document itself, later a list of keyframed documents: wrapped
 * as one keyframe at time 0;</li>
 * <li>before 4.4.18 whether a path is closed was on the shape ({@code closed}) or the mask ({@code cl}), later on
 * each path value ({@code c}): copied onto each value (Skottie cannot parse a keyframed path without it, and drops
 * the property).</li>
 * </ul>
 * The file is then marked 4.4.18, so that a player reading the result does not upgrade it again; lottie-web's later
 * upgrades (embedded glyphs before 4.7.99, text path numbers before 5.7.15) are left to it.
 */
final class Upgrades {

    private static final int[] COLOURS_AS_FRACTIONS = {4, 1, 9};
    private static final int[] TEXT_KEYFRAMES = {4, 4, 14};
    private static final int[] CLOSED_ON_VALUES = {4, 4, 18};

    private Upgrades() {
    }

    static void apply(ObjectNode root) {
        String version = root.path("v").asText("");
        if (!older(version, CLOSED_ON_VALUES)) {
            return;
        }
        List<JsonNode> compositions = new ArrayList<>();
        compositions.add(root.path("layers"));
        root.path("assets").forEach(asset -> compositions.add(asset.path("layers")));
        for (JsonNode layers : compositions) {
            for (JsonNode layer : layers) {
                if (older(version, COLOURS_AS_FRACTIONS) && layer.path("ty").asInt(-1) == 4) {
                    colours(layer.path("shapes"));
                }
                if (older(version, TEXT_KEYFRAMES) && layer.path("ty").asInt(-1) == 5
                        && layer.path("t") instanceof ObjectNode text && text.get("d") instanceof ObjectNode d) {
                    ObjectNode key = text.putObject("d").putArray("k").addObject();
                    key.set("s", d);
                    key.put("t", 0);
                }
                for (JsonNode mask : layer.path("masksProperties")) {
                    closed(mask.path("pt").path("k"), mask.path("cl").asBoolean(false));
                }
                if (layer.path("ty").asInt(-1) == 4) {
                    closedShapes(layer.path("shapes"));
                }
            }
        }
        root.put("v", "4.4.18");
    }

    private static void closedShapes(JsonNode shapes) {
        for (JsonNode shape : shapes) {
            if (shape.path("ty").asText().equals("sh")) {
                closed(shape.path("ks").path("k"), shape.path("closed").asBoolean(false));
            } else if (shape.path("ty").asText().equals("gr")) {
                closedShapes(shape.path("it"));
            }
        }
    }

    /** A path property's value or keyframes, each path marked closed or not. */
    private static void closed(JsonNode value, boolean closed) {
        if (value instanceof ObjectNode path) {
            path.put("c", closed);
            return;
        }
        for (JsonNode key : value) {
            for (String end : List.of("s", "e")) {
                if (key.path(end).path(0) instanceof ObjectNode path) {
                    path.put("c", closed);
                }
            }
        }
    }

    /** True when {@code version} ("4.0.3") is before {@code minimum}; a file without a version is current. */
    static boolean older(String version, int[] minimum) {
        if (version.isEmpty()) {
            return false;
        }
        String[] parts = version.split("\\.");
        for (int i = 0; i < minimum.length; i++) {
            int part = i < parts.length ? leadingNumber(parts[i]) : 0;
            if (part != minimum[i]) {
                return part < minimum[i];
            }
        }
        return false;
    }

    private static int leadingNumber(String text) {
        int end = 0;
        while (end < text.length() && end < 6 && Character.isDigit(text.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(text.substring(0, end));
    }

    private static void colours(JsonNode shapes) {
        for (JsonNode shape : shapes) {
            String type = shape.path("ty").asText();
            if (type.equals("gr")) {
                colours(shape.path("it"));
            } else if (type.equals("fl") || type.equals("st")) {
                JsonNode value = shape.path("c").path("k");
                if (value.path(0).isObject()) {
                    for (JsonNode key : value) {
                        scale(key.path("s"));
                        scale(key.path("e"));
                    }
                } else {
                    scale(value);
                }
            }
        }
    }

    private static void scale(JsonNode colour) {
        if (colour instanceof ArrayNode array) {
            for (int i = 0; i < Math.min(4, array.size()); i++) {
                if (array.get(i).isNumber()) {
                    array.set(i, array.get(i).asDouble() / 255);
                }
            }
        }
    }
}
