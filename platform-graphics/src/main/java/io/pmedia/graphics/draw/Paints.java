package io.pmedia.graphics.draw;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

import org.jetbrains.skia.Color4f;
import org.jetbrains.skia.ColorSpace;
import org.jetbrains.skia.FilterTileMode;
import org.jetbrains.skia.Gradient;
import org.jetbrains.skia.Paint;
import org.jetbrains.skia.Shader;

/**
 * Skia paints for a {@link Fill} in a box. Skiko 0.150's gradient factories take Kotlin value classes, so the JVM
 * names of those methods carry a hash ({@code makeLinearGradient-OmZatL4}) that Java source cannot spell: they are
 * looked up once, by name prefix and parameter types, and fail at class load when a Skiko upgrade changes them.
 */
public final class Paints {

    private static final Method LINEAR = gradient("makeLinearGradient", float.class, float.class, float.class,
            float.class, Gradient.class, float[].class);
    private static final Method RADIAL = gradient("makeRadialGradient", float.class, float.class, float.class,
            Gradient.class, float[].class);

    private Paints() {
    }

    /** An anti-aliased paint of {@code fill} over the box (x, y, width, height). */
    public static Paint fill(Fill fill, double x, double y, double width, double height) {
        Paint paint = new Paint();
        paint.setAntiAlias(true);
        if (fill instanceof Fill.Solid solid) {
            paint.setColor(solid.color());
        } else if (fill instanceof Fill.Linear linear) {
            paint.setShader(invoke(LINEAR, (float) (x + linear.x0() * width), (float) (y + linear.y0() * height),
                    (float) (x + linear.x1() * width), (float) (y + linear.y1() * height), gradient(linear.stops())));
        } else if (fill instanceof Fill.Radial radial) {
            paint.setShader(invoke(RADIAL, (float) (x + radial.cx() * width), (float) (y + radial.cy() * height),
                    (float) (radial.radius() * Math.max(width, height)), gradient(radial.stops())));
        }
        return paint;
    }

    public static Paint stroke(Stroke stroke) {
        Paint paint = new Paint();
        paint.setAntiAlias(true);
        paint.setColor(stroke.color());
        paint.setMode(org.jetbrains.skia.PaintMode.STROKE);
        paint.setStrokeWidth((float) stroke.width());
        return paint;
    }

    private static Gradient gradient(List<Fill.Stop> stops) {
        Color4f[] colors = new Color4f[stops.size()];
        float[] positions = new float[stops.size()];
        for (int i = 0; i < stops.size(); i++) {
            colors[i] = new Color4f(stops.get(i).color());
            positions[i] = (float) stops.get(i).offset();
        }
        return new Gradient(new Gradient.Colors(colors, positions, FilterTileMode.CLAMP, ColorSpace.Companion
                .getSRGB()), new Gradient.Interpolation());
    }

    private static Shader invoke(Method method, Object... arguments) {
        Object[] all = new Object[arguments.length + 1];
        System.arraycopy(arguments, 0, all, 0, arguments.length);
        all[arguments.length] = null; // no local matrix
        try {
            return (Shader) method.invoke(Shader.Companion, all);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("Skia refused a gradient: " + e.getCause(), e.getCause());
        }
    }

    private static Method gradient(String prefix, Class<?>... parameters) {
        for (Method method : Shader.Companion.class.getMethods()) {
            if (method.getName().startsWith(prefix + "-")
                    && java.util.Arrays.equals(method.getParameterTypes(), parameters)) {
                return method;
            }
        }
        throw new IllegalStateException("Skiko's Shader has no " + prefix + " taking "
                + java.util.Arrays.toString(parameters) + ": the Skiko version changed its API");
    }
}
