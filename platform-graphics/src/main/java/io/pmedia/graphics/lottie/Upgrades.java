package io.pmedia.graphics.lottie;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What lottie-web does to a file from an older Bodymovin before it plays it, and Skottie does not: Bodymovin before
 * 4.1.9 wrote the colours of shape fills and strokes as 0 to 255, later ones as 0 to 1. lottie-web (its data
 * manager's colour check) divides them by 255 in the shape layers of the main composition and of every precomp,
 * static colours and each keyframe's start and end alike; so does this, and then marks the file 4.1.9 so that a
 * player reading the result does not divide again. Gradients and solids were never stored that way.
 */
final class Upgrades {

    private static final int[] COLOURS_AS_FRACTIONS = {4, 1, 9};

    private Upgrades() {
    }

    static void apply(ObjectNode root) {
        if (!older(root.path("v").asText(""), COLOURS_AS_FRACTIONS)) {
            return;
        }
        colours(root.path("layers"));
        for (JsonNode asset : root.path("assets")) {
            colours(asset.path("layers"));
        }
        root.put("v", "4.1.9");
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

    private static void colours(JsonNode layers) {
        for (JsonNode layer : layers) {
            if (layer.path("ty").asInt(-1) == 4) {
                shapes(layer.path("shapes"));
            }
        }
    }

    private static void shapes(JsonNode shapes) {
        for (JsonNode shape : shapes) {
            String type = shape.path("ty").asText();
            if (type.equals("gr")) {
                shapes(shape.path("it"));
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
