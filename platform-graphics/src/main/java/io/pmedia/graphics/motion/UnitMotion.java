package io.pmedia.graphics.motion;

/**
 * Where one unit of an animated text is (offset, scale about its middle, opacity, blur radius) at an instant, from
 * the text's {@code in} and {@code out} animations. Pure arithmetic, no drawing: at rest a unit is
 * {@link #REST}.
 */
public record UnitMotion(double dx, double dy, double scale, double opacity, double blur) {

    public static final UnitMotion REST = new UnitMotion(0, 0, 1, 1, 0);

    /**
     * @param index the unit's place in reading order, of {@code count}
     * @param sinceStart seconds since the layer started
     * @param untilEnd seconds until the layer ends
     * @param size the text's size in pixels (the default slide distance and the scale of the blur)
     */
    public static UnitMotion at(TextAnimation in, TextAnimation out, int index, int count, double sinceStart,
            double untilEnd, double size) {
        UnitMotion motion = REST;
        if (in != null) {
            double progress = progress(in, sinceStart - index * in.stagger());
            motion = motion.with(effect(in, progress, true, size));
        }
        if (out != null) {
            double elapsed = out.span(count) - index * out.stagger() - untilEnd;
            motion = motion.with(effect(out, progress(out, elapsed), false, size));
        }
        return motion;
    }

    /** Raw progress 0..1 of a unit {@code elapsed} seconds after its own start (negative: not yet). */
    static double progress(TextAnimation animation, double elapsed) {
        if (elapsed <= 0) {
            return 0;
        }
        if (animation.duration() <= 0 || elapsed >= animation.duration()) {
            return 1;
        }
        return elapsed / animation.duration();
    }

    /** The state of a unit {@code raw} of the way in (or, for {@code in} false, out). */
    static UnitMotion effect(TextAnimation animation, double raw, boolean in, double size) {
        if (animation.effect() == TextAnimation.Effect.TYPEWRITER) {
            boolean shown = in ? raw > 0 : raw <= 0;
            return new UnitMotion(0, 0, 1, shown ? 1 : 0, 0);
        }
        double p = animation.easing().apply(raw);
        double rest = in ? p : 1 - p;
        double away = 1 - rest;
        double distance = animation.distance() > 0 ? animation.distance() : size;
        return switch (animation.effect()) {
            case FADE -> new UnitMotion(0, 0, 1, clamp(rest), 0);
            case SLIDE -> switch (animation.direction()) {
                case LEFT -> new UnitMotion(-away * distance, 0, 1, clamp(rest), 0);
                case RIGHT -> new UnitMotion(away * distance, 0, 1, clamp(rest), 0);
                case UP -> new UnitMotion(0, -away * distance, 1, clamp(rest), 0);
                case DOWN -> new UnitMotion(0, away * distance, 1, clamp(rest), 0);
            };
            case SCALE -> new UnitMotion(0, 0, Math.max(0, rest), clamp(rest), 0);
            case POP -> new UnitMotion(0, 0, Math.max(0, backOut(clamp(rest))), clamp(rest * 2), 0);
            case BLUR -> new UnitMotion(0, 0, 1, clamp(rest), away * size / 3);
            case TYPEWRITER -> throw new IllegalStateException();
        };
    }

    /** Overshoots past 1 and settles back (the "back" easing), so the unit pops. */
    private static double backOut(double p) {
        double c = 1.70158;
        double q = p - 1;
        return 1 + (c + 1) * q * q * q + c * q * q;
    }

    private static double clamp(double value) {
        return Math.max(0, Math.min(1, value));
    }

    UnitMotion with(UnitMotion other) {
        return new UnitMotion(dx + other.dx, dy + other.dy, scale * other.scale, opacity * other.opacity,
                Math.max(blur, other.blur));
    }

    public boolean atRest() {
        return equals(REST);
    }
}
