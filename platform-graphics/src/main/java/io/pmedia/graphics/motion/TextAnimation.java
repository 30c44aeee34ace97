package io.pmedia.graphics.motion;

import java.util.Locale;

import io.pmedia.graphics.error.SceneException;

/**
 * How a text comes in or goes out: an {@link Effect} applied to each unit ({@link Unit}: letter, word, line or the
 * whole text), the units starting {@code stagger} seconds apart, each taking {@code duration} seconds, eased.
 * {@code direction} and {@code distance} are for {@code slide}: the side the text comes from (goes to), in pixels.
 */
public record TextAnimation(Effect effect, Unit unit, double duration, double stagger, Easing easing,
        Direction direction, double distance) {

    public enum Effect {
        FADE, SLIDE, SCALE, POP, TYPEWRITER, BLUR;

        public static Effect parse(String value, String path) {
            return named(Effect.class, value, path);
        }
    }

    public enum Unit {
        LETTER, WORD, LINE, ALL;

        public static Unit parse(String value, String path) {
            return value == null ? ALL : named(Unit.class, value, path);
        }
    }

    public enum Direction {
        LEFT, RIGHT, UP, DOWN;

        public static Direction parse(String value, String path) {
            return value == null ? UP : named(Direction.class, value, path);
        }
    }

    public TextAnimation {
        if (easing == null) {
            easing = Easing.LINEAR;
        }
        if (unit == null) {
            unit = Unit.ALL;
        }
        if (direction == null) {
            direction = Direction.UP;
        }
    }

    /** The time from the first unit's start to the last unit's end, for {@code units} units. */
    public double span(int units) {
        return duration + stagger * Math.max(0, units - 1);
    }

    private static <E extends Enum<E>> E named(Class<E> type, String value, String path) {
        for (E constant : type.getEnumConstants()) {
            if (constant.name().toLowerCase(Locale.ROOT).equals(value)) {
                return constant;
            }
        }
        StringBuilder names = new StringBuilder();
        for (E constant : type.getEnumConstants()) {
            names.append(names.length() == 0 ? "" : ", ").append(constant.name().toLowerCase(Locale.ROOT));
        }
        throw new SceneException(path, "unknown value '" + value + "': one of " + names);
    }
}
