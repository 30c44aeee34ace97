package io.pmedia.graphics.lottie;

import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.FontMgr;
import org.jetbrains.skia.skottie.Animation;
import org.jetbrains.skia.skottie.AnimationBuilder;
import org.jetbrains.skia.skottie.AnimationBuilderFlag;

/**
 * One Lottie layer's animation, built once per renderer (Skottie's animation is not thread-safe, and building it
 * parses the file and makes its scene graph: the costly part), then seeked and drawn per frame.
 * <p>
 * Fonts: Skottie resolves a font of the file's {@code fonts.list} by family and style through a font manager, and
 * shapes each run with HarfBuzz, taking each character the font lacks from the font manager's fallback (fontconfig
 * here: the Noto families of {@link io.pmedia.graphics.text.FontChain#FALLBACK} are installed beside it, so a name
 * in any of those scripts shapes). The file's embedded glyphs ({@code chars}) come first when it has them, as
 * lottie-web draws them; {@link LottieFile#personalize} drops the glyphs of a font a replaced text is not covered by.
 */
public final class LottiePainter implements AutoCloseable {

    private final Animation animation;

    /** @param json the file as {@link LottieFile#personalize} returns it */
    public LottiePainter(String json) {
        try (AnimationBuilder builder = new AnimationBuilder(AnimationBuilderFlag.PREFER_EMBEDDED_FONTS)) {
            builder.setFontManager(FontMgr.Companion.getDefault());
            this.animation = builder.buildFromString(json);
        } catch (RuntimeException e) {
            throw new LottieException("", "Skottie cannot play the file: " + e.getMessage());
        }
        if (animation == null) {
            throw new LottieException("", "Skottie cannot play the file");
        }
    }

    public double inPoint() {
        return animation.getInPoint();
    }

    public double outPoint() {
        return animation.getOutPoint();
    }

    public double frameRate() {
        return animation.getFPS();
    }

    public float width() {
        return animation.getWidth();
    }

    public float height() {
        return animation.getHeight();
    }

    /**
     * Draws frame {@code frame} of the file (its own frame numbers, from the in point; fractions interpolate) at
     * its own size, its canvas at 0, 0.
     */
    public void paint(Canvas canvas, double frame) {
        animation.seekFrame((float) (frame - animation.getInPoint())); // Skottie counts from the in point
        animation.render(canvas);
    }

    @Override
    public void close() {
        animation.close();
    }
}
