package io.pmedia.graphics.lottie;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.FontMgr;
import org.jetbrains.skia.Rect;
import org.jetbrains.skia.skottie.Animation;
import org.jetbrains.skia.skottie.AnimationBuilder;
import org.jetbrains.skia.skottie.AnimationBuilderFlag;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.graphics.text.FontChain;

/**
 * One Lottie layer's animation, built once per renderer (Skottie's animation is not thread-safe, and building it
 * parses the file and makes its scene graph: the costly part), then seeked and drawn per frame.
 * <p>
 * Fonts: Skottie resolves a font of the file's {@code fonts.list} by family and style through a font manager, and
 * shapes each run with HarfBuzz, taking each character the font lacks from the font manager's fallback (fontconfig
 * here: the Noto families of {@link io.pmedia.graphics.text.FontChain#FALLBACK} are installed beside it, so a name
 * in any of those scripts shapes). The file's embedded glyphs ({@code chars}) come first when it has them, as
 * lottie-web draws them; {@link LottieFile#personalize} drops the glyphs of a font a replaced text is not covered by.
 * <p>
 * Images, and texts Skottie cannot shape: Skottie here loads no image and shapes no complex script (see
 * {@link Placed}). A file with layers the engine places is played as parts: one animation per run of layers between
 * two placed layers, each with every other layer of the main composition kept out of time, drawn bottom up with the
 * placed layers between them.
 */
public final class LottiePainter implements AutoCloseable {

    /** Far past any file's out point (a layer there never shows, but still parents and is parsed). */
    private static final double NEVER = 1e7;

    /**
     * The parts of the file, bottom first, and the placed layers between them: parts.get(i) is under placed.get(i).
     */
    private final List<Animation> parts = new ArrayList<>();
    private final List<Placed> placed;
    private final Animation first;

    /**
     * @param json the file as {@link LottieFile#personalize} returns it
     * @param fonts what the texts the engine shapes itself are shaped with ({@link PlacedText})
     */
    public LottiePainter(String json, FontChain fonts) {
        JsonNode root;
        try {
            root = LottieFile.JSON.readTree(json);
        } catch (IOException e) {
            throw new LottieException("", "not JSON: " + e.getMessage());
        }
        this.placed = new ArrayList<>(Placed.find(root, fonts));
        Collections.reverse(placed);
        if (placed.isEmpty()) {
            parts.add(build(json));
        } else {
            int layers = root.path("layers").size();
            // bottom up: the layers under the lowest placed layer, then those between each and the next above
            int to = layers;
            for (Placed layer : placed) {
                parts.add(build(only(root, layer.index + 1, to)));
                to = layer.index;
            }
            parts.add(build(only(root, 0, to)));
        }
        this.first = parts.get(0);
    }

    /** The file with only the main composition's layers {@code from} (inclusive) to {@code to} in time. */
    private static String only(JsonNode root, int from, int to) {
        ObjectNode copy = root.deepCopy();
        JsonNode layers = copy.path("layers");
        for (int i = 0; i < layers.size(); i++) {
            if (i < from || i >= to) {
                ((ObjectNode) layers.get(i)).put("ip", NEVER).put("op", NEVER + 1);
            }
        }
        return copy.toString();
    }

    private static Animation build(String json) {
        Animation animation;
        try (AnimationBuilder builder = new AnimationBuilder(AnimationBuilderFlag.PREFER_EMBEDDED_FONTS)) {
            builder.setFontManager(FontMgr.Companion.getDefault());
            animation = builder.buildFromString(json);
        } catch (RuntimeException e) {
            throw new LottieException("", "Skottie cannot play the file: " + e.getMessage());
        }
        if (animation == null) {
            throw new LottieException("", "Skottie cannot play the file");
        }
        return animation;
    }

    /** How many text layers the engine shapes itself ({@link PlacedText}) rather than Skottie. */
    public int shapedTexts() {
        return (int) placed.stream().filter(PlacedText.class::isInstance).count();
    }

    /** Glyphs of those texts that no font of the chain has (drawn as boxes): 0 when every character shaped. */
    public int unresolvedGlyphs() {
        return placed.stream().filter(PlacedText.class::isInstance)
                .mapToInt(p -> ((PlacedText) p).unresolvedGlyphs()).sum();
    }

    public double inPoint() {
        return first.getInPoint();
    }

    public double outPoint() {
        return first.getOutPoint();
    }

    public double frameRate() {
        return first.getFPS();
    }

    public float width() {
        return first.getWidth();
    }

    public float height() {
        return first.getHeight();
    }

    /**
     * Draws frame {@code frame} of the file (its own frame numbers, from the in point; fractions interpolate) at
     * its own size, its canvas at 0, 0.
     */
    public void paint(Canvas canvas, double frame) {
        for (int i = 0; i < parts.size(); i++) {
            Animation part = parts.get(i);
            part.seekFrame((float) (frame - part.getInPoint())); // Skottie counts from the in point
            part.render(canvas);
            if (i < placed.size()) {
                int count = canvas.save();
                canvas.clipRect(Rect.Companion.makeWH(width(), height()));
                placed.get(i).paint(canvas, Math.min(frame, Math.nextDown(outPoint())));
                canvas.restoreToCount(count);
            }
        }
    }

    @Override
    public void close() {
        parts.forEach(Animation::close);
        placed.forEach(Placed::close);
    }
}
