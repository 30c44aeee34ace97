package io.pmedia.graphics.motion;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.pmedia.graphics.error.SceneException;

/**
 * A CSS easing function (CSS Easing Functions Level 1): {@code linear}, {@code ease}, {@code ease-in},
 * {@code ease-out}, {@code ease-in-out}, {@code cubic-bezier(x1, y1, x2, y2)}, {@code step-start},
 * {@code step-end} and {@code steps(n[, jump-start|jump-end|start|end])}. Maps progress 0..1 to eased progress,
 * which may leave 0..1 for a bezier that overshoots.
 */
public sealed interface Easing {

    Easing LINEAR = new Bezier(0, 0, 1, 1);

    double apply(double progress);

    /**
     * @param path the JSON path of {@code spec}, named in the exception
     * @throws SceneException for anything CSS would not accept (and x1, x2 outside 0..1)
     */
    static Easing parse(String spec, String path) {
        if (spec == null) {
            return LINEAR;
        }
        String s = spec.strip().toLowerCase(Locale.ROOT);
        switch (s) {
            case "linear" :
                return LINEAR;
            case "ease" :
                return new Bezier(0.25, 0.1, 0.25, 1);
            case "ease-in" :
                return new Bezier(0.42, 0, 1, 1);
            case "ease-out" :
                return new Bezier(0, 0, 0.58, 1);
            case "ease-in-out" :
                return new Bezier(0.42, 0, 0.58, 1);
            case "step-start" :
                return new Steps(1, true);
            case "step-end" :
                return new Steps(1, false);
            default :
                break;
        }
        Matcher bezier = BEZIER.matcher(s);
        if (bezier.matches()) {
            double[] v = new double[4];
            for (int i = 0; i < 4; i++) {
                v[i] = Double.parseDouble(bezier.group(i + 1));
            }
            if (v[0] < 0 || v[0] > 1 || v[2] < 0 || v[2] > 1) {
                throw new SceneException(path, "cubic-bezier x1 and x2 must be between 0 and 1, not '" + spec + "'");
            }
            return new Bezier(v[0], v[1], v[2], v[3]);
        }
        Matcher steps = STEPS.matcher(s);
        if (steps.matches()) {
            int n = Integer.parseInt(steps.group(1));
            if (n < 1 || n > 1000) {
                throw new SceneException(path, "steps() takes 1 to 1000 steps, not '" + spec + "'");
            }
            String position = steps.group(2);
            return new Steps(n, "jump-start".equals(position) || "start".equals(position));
        }
        throw new SceneException(path, "unknown easing '" + spec + "': one of linear, ease, ease-in, ease-out,"
                + " ease-in-out, step-start, step-end, steps(n), cubic-bezier(x1, y1, x2, y2)");
    }

    Pattern BEZIER = Pattern.compile("cubic-bezier\\(\\s*" + Bezier.NUMBER + "\\s*,\\s*" + Bezier.NUMBER
            + "\\s*,\\s*" + Bezier.NUMBER + "\\s*,\\s*" + Bezier.NUMBER + "\\s*\\)");
    Pattern STEPS = Pattern.compile("steps\\(\\s*(\\d{1,4})\\s*(?:,\\s*(jump-start|jump-end|start|end)\\s*)?\\)");

    /** A cubic Bézier from (0,0) to (1,1) through (x1,y1), (x2,y2), solved for x by Newton then bisection. */
    record Bezier(double x1, double y1, double x2, double y2) implements Easing {

        static final String NUMBER = "(-?(?:\\d+(?:\\.\\d*)?|\\.\\d+))";

        @Override
        public double apply(double progress) {
            if (progress <= 0) {
                return 0;
            }
            if (progress >= 1) {
                return 1;
            }
            if (x1 == y1 && x2 == y2) {
                return progress;
            }
            return curve(y1, y2, solve(progress));
        }

        private double solve(double x) {
            double t = x;
            for (int i = 0; i < 8; i++) {
                double error = curve(x1, x2, t) - x;
                if (Math.abs(error) < 1e-7) {
                    return t;
                }
                double slope = slope(x1, x2, t);
                if (Math.abs(slope) < 1e-6) {
                    break;
                }
                t -= error / slope;
            }
            double low = 0;
            double high = 1;
            t = x;
            for (int i = 0; i < 60; i++) {
                double value = curve(x1, x2, t);
                if (Math.abs(value - x) < 1e-7) {
                    break;
                }
                if (value < x) {
                    low = t;
                } else {
                    high = t;
                }
                t = (low + high) / 2;
            }
            return t;
        }

        private static double curve(double a, double b, double t) {
            double u = 1 - t;
            return 3 * u * u * t * a + 3 * u * t * t * b + t * t * t;
        }

        private static double slope(double a, double b, double t) {
            double u = 1 - t;
            return 3 * u * u * a + 6 * u * t * (b - a) + 3 * t * t * (1 - b);
        }
    }

    /** {@code steps(n, jump-start)} when {@code start}, else {@code jump-end}. */
    record Steps(int n, boolean start) implements Easing {
        @Override
        public double apply(double progress) {
            if (progress <= 0) {
                return start && progress == 0 ? 1.0 / n : 0;
            }
            if (progress >= 1) {
                return 1;
            }
            double step = Math.floor(progress * n) + (start ? 1 : 0);
            return Math.min(1, step / n);
        }
    }
}
