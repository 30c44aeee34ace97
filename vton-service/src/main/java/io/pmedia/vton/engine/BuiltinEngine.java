package io.pmedia.vton.engine;

import java.awt.AlphaComposite;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.concurrent.Blocking;
import io.pmedia.common.concurrent.Contexts;
import io.pmedia.vton.EngineKind;
import io.pmedia.vton.GarmentCategory;
import io.pmedia.vton.TryOnMode;
import io.smallrye.mutiny.Uni;

/**
 * The built-in engine: a placement compositor, not a generative model. It cuts each garment out of a plain light
 * background (or uses its own transparency), scales it into the body region its category names (tops: shoulders to
 * waist; bottoms: waist to ankles; one-pieces: shoulders to knees; auto: by the garment's shape) and lays it over the
 * model photo, garments in order. It needs no provider and no GPU, gives the same answer every time, and serves local
 * use, tests and a fallback; realistic try-on is the {@code fashn} engine's (docs/vton.md).
 */
@ApplicationScoped
public class BuiltinEngine implements TryOnEngine {

    /** Body regions as fractions of the model photo: left, top, right, bottom. */
    private static final double[] TOPS = {0.22, 0.18, 0.78, 0.55};
    private static final double[] BOTTOMS = {0.27, 0.50, 0.73, 0.92};
    private static final double[] ONE_PIECES = {0.22, 0.18, 0.78, 0.85};
    /** A pixel lighter than this in every channel counts as background of a garment without transparency. */
    private static final int BACKGROUND = 235;

    private final Images images;

    public BuiltinEngine(Images images) {
        this.images = images;
    }

    @Override
    public EngineKind kind() {
        return EngineKind.BUILTIN;
    }

    /**
     * Reads the images one after the other (the first unusable one is the one named), then composes; decoding and
     * drawing are CPU work and run on worker threads.
     */
    @Override
    public Uni<Output> run(Job job) {
        Uni<List<BufferedImage>> pictures = picture(job, "model-image", job.modelImage()).map(model -> {
            List<BufferedImage> all = new ArrayList<>();
            all.add(model);
            return all;
        });
        for (int i = 0; i < job.garmentImages().size(); i++) {
            String what = "garment-image[" + i + "]";
            String url = job.garmentImages().get(i);
            pictures = pictures.flatMap(all -> picture(job, what, url).map(garment -> {
                all.add(garment);
                return all;
            }));
        }
        return Contexts.resumeOnCurrent(pictures).flatMap(all -> Blocking.offload(() -> compose(job, all)));
    }

    private Uni<BufferedImage> picture(Job job, String what, String url) {
        return images.download(job.clientId(), what, url)
                .flatMap(bytes -> Blocking.offload(() -> images.decode(what, bytes)));
    }

    /** {@code pictures}: the model, then the garments in order. */
    private Output compose(Job job, List<BufferedImage> pictures) {
        BufferedImage model = pictures.get(0);
        BufferedImage canvas = new BufferedImage(model.getWidth(), model.getHeight(), BufferedImage.TYPE_INT_ARGB);
        Graphics2D graphics = canvas.createGraphics();
        try {
            graphics.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
            graphics.setRenderingHint(RenderingHints.KEY_RENDERING, RenderingHints.VALUE_RENDER_QUALITY);
            graphics.drawImage(model, 0, 0, null);
            for (BufferedImage picture : pictures.subList(1, pictures.size())) {
                BufferedImage garment = cutOut(picture);
                place(graphics, garment, region(job.category(), garment), canvas.getWidth(), canvas.getHeight());
            }
        } finally {
            graphics.dispose();
        }
        BufferedImage output = limit(canvas, job.mode());
        return new Output(Images.encode(output, job.outputFormat()), job.outputFormat().contentType());
    }

    static double[] region(GarmentCategory category, BufferedImage garment) {
        return switch (category) {
            case TOPS -> TOPS;
            case BOTTOMS -> BOTTOMS;
            case ONE_PIECES -> ONE_PIECES;
            case AUTO -> garment.getHeight() > 1.4 * garment.getWidth() ? ONE_PIECES : TOPS;
        };
    }

    /** The garment with its background transparent: its own alpha if it has one, else its light background. */
    static BufferedImage cutOut(BufferedImage garment) {
        BufferedImage cut = new BufferedImage(garment.getWidth(), garment.getHeight(), BufferedImage.TYPE_INT_ARGB);
        boolean hasAlpha = garment.getColorModel().hasAlpha();
        for (int y = 0; y < garment.getHeight(); y++) {
            for (int x = 0; x < garment.getWidth(); x++) {
                int argb = garment.getRGB(x, y);
                int r = (argb >> 16) & 0xff;
                int g = (argb >> 8) & 0xff;
                int b = argb & 0xff;
                boolean background = !hasAlpha && r > BACKGROUND && g > BACKGROUND && b > BACKGROUND;
                cut.setRGB(x, y, background ? 0 : argb);
            }
        }
        return cut;
    }

    /** Scales the garment to fit its region (keeping its proportions), centred across, from the region's top. */
    private static void place(Graphics2D graphics, BufferedImage garment, double[] region, int width, int height) {
        double boxWidth = (region[2] - region[0]) * width;
        double boxHeight = (region[3] - region[1]) * height;
        double scale = Math.min(boxWidth / garment.getWidth(), boxHeight / garment.getHeight());
        int drawWidth = Math.max(1, (int) Math.round(garment.getWidth() * scale));
        int drawHeight = Math.max(1, (int) Math.round(garment.getHeight() * scale));
        int x = (int) Math.round(region[0] * width + (boxWidth - drawWidth) / 2);
        int y = (int) Math.round(region[1] * height);
        graphics.setComposite(AlphaComposite.SrcOver);
        graphics.drawImage(garment, x, y, drawWidth, drawHeight, null);
    }

    /** {@code performance}: at most 864 pixels high; {@code balanced}: 1296 (FASHN's sizes); {@code quality}: 2048. */
    static BufferedImage limit(BufferedImage image, TryOnMode mode) {
        int maxHeight = switch (mode) {
            case PERFORMANCE -> 864;
            case BALANCED -> 1296;
            case QUALITY -> 2048;
        };
        if (image.getHeight() <= maxHeight) {
            return image;
        }
        double scale = (double) maxHeight / image.getHeight();
        int width = Math.max(1, (int) Math.round(image.getWidth() * scale));
        BufferedImage scaled = new BufferedImage(width, maxHeight, BufferedImage.TYPE_INT_ARGB);
        Graphics2D graphics = scaled.createGraphics();
        graphics.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        graphics.drawImage(image, 0, 0, width, maxHeight, null);
        graphics.dispose();
        return scaled;
    }
}
