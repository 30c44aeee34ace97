package io.pmedia.graphics;

/** When a layer shows, in seconds of the scene, and how long it fades in and out (0: no fade). */
public record Timing(double start, double end, double fadeIn, double fadeOut) {

    public boolean shows(double time) {
        return time >= start && time < end;
    }

    /** The fades' opacity at {@code time}, 1 between them. */
    public double opacity(double time) {
        double opacity = 1;
        if (fadeIn > 0) {
            opacity = Math.min(opacity, (time - start) / fadeIn);
        }
        if (fadeOut > 0) {
            opacity = Math.min(opacity, (end - time) / fadeOut);
        }
        return Math.max(0, Math.min(1, opacity));
    }

    /** True while a fade is under way at {@code time}. */
    public boolean fading(double time) {
        return (fadeIn > 0 && time < start + fadeIn) || (fadeOut > 0 && time > end - fadeOut);
    }
}
