package io.pmedia.graphics.text;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

import org.jetbrains.skia.FontStyle;
import org.jetbrains.skia.paragraph.TextStyle;

/**
 * Sets properties of Skia's {@link TextStyle}. Its Kotlin properties compile to a {@code void setX(v)} beside a
 * fluent {@code TextStyle setX(v)} of the same parameters, which javac cannot tell apart: the void setters are
 * called by reflection, looked up once.
 */
final class Styles {

    private static final Method FAMILIES = setter("setFontFamilies", String[].class);
    private static final Method SIZE = setter("setFontSize", float.class);
    private static final Method HEIGHT = setter("setHeight", Float.class);
    private static final Method COLOR = setter("setColor", int.class);
    private static final Method HALF_LEADING = setter("setHalfLeading", boolean.class);
    private static final Method FONT_STYLE = setter("setFontStyle", FontStyle.class);
    private static final Method LETTER_SPACING = setter("setLetterSpacing", float.class);

    private Styles() {
    }

    static TextStyle of(String[] families, double size, double lineHeight, int color) {
        TextStyle style = new TextStyle();
        set(FAMILIES, style, (Object) families);
        set(SIZE, style, (float) size);
        set(HEIGHT, style, (float) lineHeight);
        set(HALF_LEADING, style, true);
        set(COLOR, style, color);
        return style;
    }

    /** The style of {@link #of} in a weight and slant, its letters {@code letterSpacing} pixels apart. */
    static TextStyle of(String[] families, double size, double lineHeight, int color, FontStyle fontStyle,
            double letterSpacing) {
        TextStyle style = of(families, size, lineHeight, color);
        set(FONT_STYLE, style, fontStyle);
        set(LETTER_SPACING, style, (float) letterSpacing);
        return style;
    }

    private static void set(Method setter, TextStyle style, Object value) {
        try {
            setter.invoke(style, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(setter.getName() + " failed: " + e.getCause(), e.getCause());
        }
    }

    private static Method setter(String name, Class<?> parameter) {
        for (Method method : TextStyle.class.getMethods()) {
            if (method.getName().equals(name) && method.getReturnType() == void.class
                    && method.getParameterCount() == 1 && method.getParameterTypes()[0] == parameter) {
                return method;
            }
        }
        throw new IllegalStateException("Skiko's TextStyle has no void " + name + "(" + parameter.getSimpleName()
                + "): the Skiko version changed its API");
    }
}
