package io.pmedia.graphics.lottie;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Keyframed paths whose vertex count changes from one keyframe to another, made one count. After Effects exports
 * them (a shape or mask path edited between keyframes); lottie-web plays them, interpolating the vertices the
 * start has, but Skottie refuses the whole property and draws the path nowhere. Each shorter path gets its last
 * vertex repeated until the counts agree, the repeat taking over the last vertex's out tangent, so the drawn outline
 * is the same: the segment between a vertex and its repeat has no length.
 */
final class PathCounts {

    private PathCounts() {
    }

    static void apply(JsonNode node) {
        if (node instanceof ObjectNode object) {
            if (object.path("k").path(0).path("s").path(0).has("v")) {
                even(object.path("k"));
            }
            object.forEach(PathCounts::apply);
        } else if (node instanceof ArrayNode array) {
            array.forEach(PathCounts::apply);
        }
    }

    private static void even(JsonNode keys) {
        List<ObjectNode> paths = new ArrayList<>();
        for (JsonNode key : keys) {
            for (String end : List.of("s", "e")) {
                if (key.path(end).path(0) instanceof ObjectNode path && path.path("v").isArray()) {
                    paths.add(path);
                }
            }
        }
        int most = paths.stream().mapToInt(p -> p.path("v").size()).max().orElse(0);
        for (ObjectNode path : paths) {
            if (path.path("v").size() == 0 || path.path("v").size() == most || !(path.get("i") instanceof ArrayNode in)
                    || !(path.get("o") instanceof ArrayNode out) || in.size() != path.path("v").size()
                    || out.size() != in.size()) {
                continue;
            }
            ArrayNode vertices = (ArrayNode) path.get("v");
            JsonNode lastOut = out.get(out.size() - 1);
            out.set(out.size() - 1, zero());
            while (vertices.size() < most) {
                vertices.add(vertices.get(vertices.size() - 1).deepCopy());
                in.add(zero());
                out.add(zero());
            }
            out.set(out.size() - 1, lastOut);
        }
    }

    private static ArrayNode zero() {
        return LottieFile.JSON.createArrayNode().add(0).add(0);
    }
}
