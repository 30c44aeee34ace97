package io.pmedia.media.template;

import static io.pmedia.media.template.TemplateLimits.MAX_COORDINATE;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.graphics.error.SceneException;

/**
 * The template keys the graphics engine reads (text animations, keyframes, shapes, fills), checked for
 * {@link TemplateValidator} through {@link MotionKeys}, which reads them for the render too: one reading, so what
 * validates is what draws. Each problem is named by its JSON path.
 */
final class GraphicsKeys {

    private GraphicsKeys() {
    }

    /**
     * The keys of the graphics engine (MotionKeys): {@code animate} on text layers, {@code keyframes} on every
     * drawn layer (an image, icon or video with keyframes is drawn by the engine; an image or icon then takes no
     * {@code motion}, which a video never takes), {@code fill} on text and shape layers, {@code box-fill} on text layers, the other shape keys on
     * shape layers only; each problem named by its JSON path.
     */
    static void motion(TemplateDefinition.Layer layer, String at, double duration, List<String> problems) {
        LayerType type = layer.layerType();
        if (layer.animate() != null && type != LayerType.TEXT) {
            problems.add(at + ".animate: only text layers animate (other layers: keyframes)");
        } else {
            graphics(problems, () -> MotionKeys.animate(layer.animate(), at + ".animate"));
            graphics(problems, () -> MotionKeys.animation(layer.animate(), "in", at + ".animate"));
            graphics(problems, () -> MotionKeys.animation(layer.animate(), "out", at + ".animate"));
        }
        if (layer.keyframes() != null && type == LayerType.SPEECH) {
            problems.add(at + ".keyframes: a speech layer is heard, not drawn");
        } else {
            graphics(problems, () -> MotionKeys.keyframes(layer.keyframes(), duration, at + ".keyframes"));
        }
        if (type == LayerType.TEXT) {
            // the letters' fill and the boxes' fill: a colour or a gradient, as a shape's fill
            graphics(problems, () -> MotionKeys.fill(layer.fill(), at + ".fill"));
            graphics(problems, () -> MotionKeys.fill(layer.boxFill(), at + ".box-fill"));
            if (layer.boxFill() != null && layer.boxColor() != null) {
                problems.add(at + ".box-fill: box-color or box-fill, not both");
            }
        }
        if (type != LayerType.SHAPE) {
            Map<String, Object> shapeKeys = new LinkedHashMap<>();
            shapeKeys.put("shape", layer.shape());
            shapeKeys.put("path", layer.path());
            shapeKeys.put("radius", layer.radius());
            if (type != LayerType.TEXT) {
                shapeKeys.put("fill", layer.fill());
            }
            shapeKeys.put("stroke", layer.stroke());
            shapeKeys.put("shadow", layer.shadow());
            LayerRules.refuse(shapeKeys, at, ": only shape layers take it", problems);
        }
    }

    static void shape(TemplateDefinition.Layer layer, String at, List<String> problems) {
        if (layer.width() == null || layer.width() < 1 || layer.width() > MAX_COORDINATE) {
            problems.add(at + ".width: required, from 1 to " + MAX_COORDINATE + " pixels");
        }
        if (layer.height() == null || layer.height() < 1 || layer.height() > MAX_COORDINATE) {
            problems.add(at + ".height: required, from 1 to " + MAX_COORDINATE + " pixels");
        }
        for (String key : List.of("x", "y")) {
            JsonNode value = key.equals("x") ? layer.x() : layer.y();
            if (value != null && (!value.isIntegralNumber() || Math.abs(value.asLong()) > MAX_COORDINATE)) {
                problems.add(at + "." + key + ": pixels, from -" + MAX_COORDINATE + " to " + MAX_COORDINATE);
            }
        }
        double width = layer.width() == null ? 1 : layer.width();
        double height = layer.height() == null ? 1 : layer.height();
        graphics(problems, () -> MotionKeys.geometry(layer.shape(), 0, 0, width, height, layer.radius(),
                layer.path(), at));
        if (layer.fill() == null && layer.stroke() == null) {
            problems.add(at + ": a shape needs a fill, a stroke or both");
        }
        if ("line".equals(layer.shape()) && layer.stroke() == null) {
            problems.add(at + ".stroke: a line is drawn by its stroke");
        }
        graphics(problems, () -> MotionKeys.fill(layer.fill(), at + ".fill"));
        graphics(problems, () -> MotionKeys.stroke(layer.stroke(), at + ".stroke"));
        graphics(problems, () -> MotionKeys.shadow(layer.shadow(), at + ".shadow"));
        Map<String, Object> textKeys = new LinkedHashMap<>();
        textKeys.put("text", layer.text());
        textKeys.put("font", layer.font());
        textKeys.put("size", layer.size());
        textKeys.put("color", layer.color());
        textKeys.put("asset", layer.asset());
        textKeys.put("fit", layer.fit());
        LayerRules.refuse(textKeys, at, ": a shape layer does not take it", problems);
    }

    /** Runs one reading of MotionKeys, its problem (if any) added with its JSON path. */
    static void graphics(List<String> problems, Runnable reading) {
        try {
            reading.run();
        } catch (SceneException e) {
            problems.add(e.getMessage());
        }
    }
}
