package io.pmedia.media.template;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

import io.pmedia.graphics.lottie.LottieCheck;

/**
 * What the check of a registered Lottie file found in it: its canvas and timing, the placeholders a template's lottie
 * layer may fill ({@code text-layers} by name, {@code slots} by id and kind, {@code image-assets} by id) and what the
 * engine will not draw ({@code warnings}). Kept beside the file so that templates are checked against it without
 * reading the file again.
 */
public record MotionFacts(int width, int height, @JsonProperty("frame-rate") double frameRate, double duration,
        @JsonProperty("text-layers") List<String> textLayers, Map<String, String> slots,
        @JsonProperty("image-assets") List<String> imageAssets, List<String> warnings) {

    public static MotionFacts of(LottieCheck check) {
        return new MotionFacts(check.width(), check.height(), check.frameRate(), check.duration(),
                List.copyOf(check.textLayers()), Map.copyOf(check.slots()), List.copyOf(check.imageAssets()),
                List.copyOf(check.warnings()));
    }

    /** True when a template's {@code text} key may name {@code key}: a text layer's name or a text slot. */
    public boolean takesText(String key) {
        return textLayers.contains(key) || "text".equals(slots.get(key));
    }

    /** True when a template's {@code colors} key may name {@code key}: a colour slot. */
    public boolean takesColor(String key) {
        return "color".equals(slots.get(key));
    }

    /** True when a template's {@code images} key may name {@code key}: an image asset or an image slot. */
    public boolean takesImage(String key) {
        return imageAssets.contains(key) || "image".equals(slots.get(key));
    }
}
