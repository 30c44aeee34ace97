package io.pmedia.graphics.motion;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

import io.pmedia.graphics.error.SceneException;

/**
 * A layer's keyframes, each property interpolated on its own between the keyframes that name it: before the first
 * it holds the first value, after the last the last value (a layer follows its keyframes across its time).
 */
public final class Keyframes {

    public static final Keyframes NONE = new Keyframes(List.of());

    private final List<Keyframe> frames;

    private Keyframes(List<Keyframe> frames) {
        this.frames = frames;
    }

    /**
     * @param path the JSON path of the keyframe list; a keyframe outside {@code 0..duration} or two at one time are
     *        refused with the path of the keyframe ({@code path[i].time})
     */
    public static Keyframes of(List<Keyframe> frames, double duration, String path) {
        for (int i = 0; i < frames.size(); i++) {
            Keyframe frame = frames.get(i);
            if (!(frame.time() >= 0) || frame.time() > duration + 1e-9) {
                throw new SceneException(path + "[" + i + "].time", "keyframe at " + frame.time()
                        + " s is outside its layer (0 to " + duration + " s)");
            }
            for (int j = 0; j < i; j++) {
                if (frames.get(j).time() == frame.time()) {
                    throw new SceneException(path + "[" + i + "].time", "two keyframes at " + frame.time() + " s");
                }
            }
            if (frame.scale() != null && frame.scale() < 0) {
                throw new SceneException(path + "[" + i + "].scale", "scale must not be negative");
            }
            if (frame.opacity() != null && (frame.opacity() < 0 || frame.opacity() > 1)) {
                throw new SceneException(path + "[" + i + "].opacity", "opacity must be between 0 and 1");
            }
        }
        List<Keyframe> sorted = new ArrayList<>(frames);
        sorted.sort(Comparator.comparingDouble(Keyframe::time));
        return new Keyframes(List.copyOf(sorted));
    }

    public boolean isEmpty() {
        return frames.isEmpty();
    }

    /** The first and last keyed time; outside them nothing moves. */
    public double first() {
        return frames.isEmpty() ? 0 : frames.get(0).time();
    }

    public double last() {
        return frames.isEmpty() ? 0 : frames.get(frames.size() - 1).time();
    }

    /** The largest scale the keyframes reach, at least 1 (how sharp a picture must be kept to stay sharp). */
    public double largestScale() {
        return frames.stream().map(Keyframe::scale).filter(s -> s != null).mapToDouble(Double::doubleValue)
                .reduce(1, Math::max);
    }

    /** The transform at {@code time} seconds into the layer. */
    public Transform at(double time) {
        if (frames.isEmpty()) {
            return Transform.IDENTITY;
        }
        Transform identity = Transform.IDENTITY;
        return new Transform(
                value(time, Keyframe::x, identity.x()),
                value(time, Keyframe::y, identity.y()),
                value(time, Keyframe::scale, identity.scale()),
                value(time, Keyframe::rotation, identity.rotation()),
                value(time, Keyframe::opacity, identity.opacity()),
                value(time, Keyframe::anchorX, identity.anchorX()),
                value(time, Keyframe::anchorY, identity.anchorY()));
    }

    private double value(double time, Function<Keyframe, Double> property, double fallback) {
        Keyframe before = null;
        Keyframe after = null;
        for (Keyframe frame : frames) {
            if (property.apply(frame) == null) {
                continue;
            }
            if (frame.time() <= time) {
                before = frame;
            } else {
                after = frame;
                break;
            }
        }
        if (before == null && after == null) {
            return fallback;
        }
        if (before == null) {
            return property.apply(after);
        }
        if (after == null) {
            return property.apply(before);
        }
        double progress = (time - before.time()) / (after.time() - before.time());
        double eased = before.easing().apply(progress);
        double from = property.apply(before);
        return from + (property.apply(after) - from) * eased;
    }
}
