package io.pmedia.graphics.lottie;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Masks whose path is open, made masks that do nothing (mode {@code n}). In After Effects an open mask creates no
 * transparency (it is a path for an effect such as a stroke), and lottie-web draws it as an empty path, but Skottie
 * fills it as if it were closed: a {@code difference} mask that is only a line then cuts a hole in its layer, an
 * {@code add} one crops it. A path counts as open when none of its values is marked closed ({@code c}); a mask whose
 * path opens and closes over time is left as it is. Applied after {@link Upgrades}, which copies an old file's
 * closedness onto the values.
 */
final class OpenMasks {

    private OpenMasks() {
    }

    static void apply(ObjectNode root) {
        apply(root.path("layers"));
        root.path("assets").forEach(asset -> apply(asset.path("layers")));
    }

    private static void apply(JsonNode layers) {
        for (JsonNode layer : layers) {
            for (JsonNode mask : layer.path("masksProperties")) {
                if (mask instanceof ObjectNode object && open(mask.path("pt").path("k"))) {
                    object.put("mode", "n");
                }
            }
        }
    }

    /** True when no value of a path property (a path, or keyframes of paths) is closed. */
    private static boolean open(JsonNode value) {
        if (value.isObject()) {
            return !value.path("c").asBoolean(false);
        }
        for (JsonNode key : value) {
            for (String end : List.of("s", "e")) {
                if (key.path(end).path(0).path("c").asBoolean(false)) {
                    return false;
                }
            }
        }
        return value.isArray() && !value.isEmpty();
    }
}
