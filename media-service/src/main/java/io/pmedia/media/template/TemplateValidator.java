package io.pmedia.media.template;

import static io.pmedia.media.template.TemplateLimits.MAX_DURATION;
import static io.pmedia.media.template.TemplateLimits.MAX_FIELDS;
import static io.pmedia.media.template.TemplateLimits.MAX_FPS;
import static io.pmedia.media.template.TemplateLimits.MAX_GIF_HEIGHT;
import static io.pmedia.media.template.TemplateLimits.MAX_LONG_SIDE;
import static io.pmedia.media.template.TemplateLimits.MAX_OUTPUTS;
import static io.pmedia.media.template.TemplateLimits.MAX_SEGMENTS;
import static io.pmedia.media.template.TemplateLimits.MAX_SHORT_SIDE;
import static io.pmedia.media.template.TemplateLimits.MAX_SLOTS;
import static io.pmedia.media.template.TemplateLimits.MAX_TEXT;
import static io.pmedia.media.template.TemplateLimits.MAX_TRANSITION;
import static io.pmedia.media.template.TemplateLimits.MAX_VARIANTS;
import static io.pmedia.media.template.TemplateLimits.MIN_SEGMENT_DURATION;
import static io.pmedia.media.template.TemplateLimits.MIN_SIDE;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

/**
 * Checks a template before it is stored and reports everything that is wrong at once, each problem with its JSON
 * path ({@code segments[2].layers[0].font: unknown font 'x'}). A template that passes renders with any request data
 * the resolver accepts.
 */
public final class TemplateValidator {

    /** An espeak-ng voice ({@code en-us}, {@code de+f3}) or a provider's voice name ({@code alloy}). */
    static final Pattern VOICE = Pattern.compile("[a-z][a-z0-9_]{1,31}(-[a-z0-9]{2,8}){0,2}(\\+[a-z0-9]{1,12})?");
    /** FFmpeg xfade transitions a template may name. */
    static final Set<String> TRANSITIONS = Set.of("fade", "fadeblack", "fadewhite", "dissolve", "wipeleft",
            "wiperight", "wipeup", "wipedown", "slideleft", "slideright", "slideup", "slidedown", "circleopen",
            "circleclose", "circlecrop", "rectcrop", "radial", "smoothleft", "smoothright", "smoothup",
            "smoothdown", "pixelize", "zoomin", "distance", "hblur");

    static final Pattern USE_CASE_ID = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
    static final Pattern COLOR = Pattern.compile("#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?");
    static final Set<String> ALIGNS = Set.of("left", "center", "right");
    private TemplateValidator() {
    }

    /** A definition read from JSON, and every problem found in reading and checking it. */
    public record Checked(TemplateDefinition definition, List<String> problems) {

        public boolean valid() {
            return problems.isEmpty();
        }
    }

    /**
     * Reads a registration body and checks it: wrong JSON types and unknown keys are reported with their paths,
     * like the rules of {@link #validate(TemplateDefinition)}. The definition is null when the body cannot be read.
     */
    public static Checked check(JsonNode body, ObjectMapper mapper) {
        return check(body, mapper, Set.of());
    }

    /**
     * As {@link #check(JsonNode, ObjectMapper)}, where a text layer may also name one of {@code fonts} (the fonts
     * an operator registered).
     */
    public static Checked check(JsonNode body, ObjectMapper mapper, Set<String> fonts) {
        return check(body, mapper, new Registered(fonts, Map.of()));
    }

    /**
     * What a template may name besides what is built in: the fonts an operator registered, and the motions (Lottie
     * files) its owner may name, by name, with what each takes.
     */
    public record Registered(Set<String> fonts, Map<String, MotionFacts> motions) {

        public static final Registered NONE = new Registered(Set.of(), Map.of());
    }

    /** As {@link #check(JsonNode, ObjectMapper)}, against what is {@code registered}. */
    public static Checked check(JsonNode body, ObjectMapper mapper, Registered registered) {
        if (body == null || !body.isObject()) {
            return new Checked(null, List.of("body: a JSON object (the template definition) is required"));
        }
        List<String> problems = new ArrayList<>();
        UnknownKeys.find(body, TemplateDefinition.class, "", problems);
        TemplateDefinition definition;
        try {
            definition = mapper.treeToValue(body, TemplateDefinition.class);
        } catch (JsonMappingException e) {
            problems.add(0, path(e) + ": " + expectation(e));
            return new Checked(null, List.copyOf(problems));
        } catch (JsonProcessingException e) {
            problems.add(0, "body: not a readable template definition");
            return new Checked(null, List.copyOf(problems));
        }
        problems.addAll(validate(definition, registered));
        return new Checked(definition, List.copyOf(problems));
    }

    /** Every rule a definition breaks, each as {@code json.path: what is expected}; empty when it is valid. */
    public static List<String> validate(TemplateDefinition template) {
        return validate(template, Set.of());
    }

    /** As {@link #validate(TemplateDefinition)}, where a text layer may also name one of {@code fonts}. */
    public static List<String> validate(TemplateDefinition template, Set<String> fonts) {
        return validate(template, new Registered(fonts, Map.of()));
    }

    /** As {@link #validate(TemplateDefinition)}, against what is {@code registered}. */
    public static List<String> validate(TemplateDefinition template, Registered registered) {
        if (template == null) {
            return List.of("body: a template definition is required");
        }
        List<String> problems = new ArrayList<>();
        if (template.useCaseId() == null || !USE_CASE_ID.matcher(template.useCaseId()).matches()) {
            problems.add("use-case-id: required; lower-case letters, digits, '.', '_' and '-', at most 64, "
                    + "starting with a letter or digit");
        }
        if (template.name() == null || template.name().isBlank() || template.name().length() > 200) {
            problems.add("name: required, at most 200 characters");
        }
        if (template.description() != null && template.description().length() > 2000) {
            problems.add("description: at most 2000 characters");
        }
        canvas(template.canvas(), problems);
        Set<String> fieldNames = fields(template, problems);
        slots(template, problems);
        audio(template.audio(), problems);
        segments(template, fieldNames, registered, problems);
        EarlierFormMapping.check(template, fieldNames, problems);
        outputs(template, problems);
        ShareRules.check(template, fieldNames, problems);
        if (template.allowedClients() != null && template.allowedClients().stream().anyMatch(c -> c == null)) {
            problems.add("allowed-clients: client ids (uuids), no nulls");
        }
        return problems;
    }

    private static void canvas(TemplateDefinition.Canvas canvas, List<String> problems) {
        if (canvas == null) {
            problems.add("canvas: required (width, height, fps, background)");
            return;
        }
        int width = canvas.width();
        int height = canvas.height();
        boolean sidesOk = true;
        if (width < MIN_SIDE || width > MAX_LONG_SIDE || width % 2 != 0) {
            problems.add("canvas.width: an even number of pixels from " + MIN_SIDE + " to " + MAX_LONG_SIDE);
            sidesOk = false;
        }
        if (height < MIN_SIDE || height > MAX_LONG_SIDE || height % 2 != 0) {
            problems.add("canvas.height: an even number of pixels from " + MIN_SIDE + " to " + MAX_LONG_SIDE);
            sidesOk = false;
        }
        if (sidesOk && Math.min(width, height) > MAX_SHORT_SIDE) {
            problems.add("canvas: at most 1920x1080 (landscape) or 1080x1920 (portrait)");
        }
        if (canvas.fps() < 1 || canvas.fps() > MAX_FPS) {
            problems.add("canvas.fps: a whole number from 1 to " + MAX_FPS);
        }
        LayerRules.color(canvas.background(), "canvas.background", problems);
    }

    private static Set<String> fields(TemplateDefinition template, List<String> problems) {
        Set<String> names = new HashSet<>();
        List<TemplateDefinition.Field> fields = template.fieldsOrEmpty();
        if (fields.size() > MAX_FIELDS) {
            problems.add("fields: at most " + MAX_FIELDS);
        }
        for (int i = 0; i < fields.size(); i++) {
            TemplateDefinition.Field field = fields.get(i);
            String path = "fields[" + i + "]";
            if (field == null) {
                problems.add(path + ": must be an object");
                continue;
            }
            if (field.name() == null || !ID.matcher(field.name()).matches()) {
                problems.add(path + ".name: required; letters, digits, '_' and '-', at most 64");
            } else if (!names.add(field.name())) {
                problems.add(path + ".name: '" + field.name() + "' is declared twice");
            }
            if (field.maxLength() != null && (field.maxLength() < 1 || field.maxLength() > MAX_TEXT)) {
                problems.add(path + ".max-length: from 1 to " + MAX_TEXT);
            }
            if (field.defaultValue() != null) {
                if (field.requiredOrFalse()) {
                    problems.add(path + ".default: a required field takes no default");
                } else if (VendorInput.length(field.defaultValue()) > field.maxLengthOrDefault()) {
                    problems.add(path + ".default: longer than max-length (" + field.maxLengthOrDefault() + ")");
                } else if (Placeholders.PATTERN.matcher(field.defaultValue()).find()) {
                    problems.add(path + ".default: no {{placeholders}} in a default");
                }
            }
        }
        return names;
    }

    private static void slots(TemplateDefinition template, List<String> problems) {
        for (AssetKind kind : AssetKind.SLOTS) {
            List<TemplateDefinition.AssetSlot> slots = template.assetsOrEmpty().of(kind);
            if (slots.size() > MAX_SLOTS) {
                problems.add("assets." + kind.listName() + ": at most " + MAX_SLOTS + " slots");
            }
            for (int i = 0; i < slots.size(); i++) {
                TemplateDefinition.AssetSlot slot = slots.get(i);
                String path = "assets." + kind.listName() + "[" + i + "]";
                if (slot == null) {
                    problems.add(path + ": must be an object (it may be empty: {})");
                    continue;
                }
                if (slot.name() != null && !ID.matcher(slot.name()).matches()) {
                    problems.add(path + ".name: letters, digits, '_' and '-', at most 64");
                }
                if (slot.defaultUrl() != null) {
                    if (slot.requiredOrFalse()) {
                        problems.add(path + ".default: a required slot takes no default");
                    } else if (!VendorInput.isHttpUrl(slot.defaultUrl())) {
                        problems.add(path + ".default: an http(s) URL");
                    }
                }
            }
        }
    }

    private static void audio(TemplateDefinition.Audio audio, List<String> problems) {
        if (audio == null) {
            return;
        }
        AudioType type = AudioType.ofWire(audio.type());
        if (type == null) {
            problems.add("audio.type: one of silence, tone, track");
            return;
        }
        if (audio.frequency() != null && (type != AudioType.TONE || audio.frequency() < 20
                || audio.frequency() > 20000)) {
            problems.add("audio.frequency: from 20 to 20000 Hz, for a tone");
        }
        if (audio.volume() != null && (audio.volume() < 0 || audio.volume() > 1)) {
            problems.add("audio.volume: from 0 to 1");
        }
        if (type == AudioType.TRACK && (audio.url() == null || !VendorInput.isHttpUrl(audio.url()))) {
            problems.add("audio.url: an http(s) URL is required for a track");
        }
        if (type != AudioType.TRACK && audio.url() != null) {
            problems.add("audio.url: only a track has a URL");
        }
        if (audio.fadeOut() != null && (type != AudioType.TRACK || audio.fadeOut() < 0 || audio.fadeOut() > 10)) {
            problems.add("audio.fade-out: from 0 to 10 seconds, for a track");
        }
        if (audio.fadeIn() != null && (type != AudioType.TRACK || audio.fadeIn() < 0 || audio.fadeIn() > 10)) {
            problems.add("audio.fade-in: from 0 to 10 seconds, for a track");
        }
        if (audio.duck() != null && (type != AudioType.TRACK || audio.duck() < 0 || audio.duck() > 1)) {
            problems.add("audio.duck: from 0 to 1 (the track's volume under speech), for a track");
        }
    }

    private static void outputs(TemplateDefinition template, List<String> problems) {
        List<TemplateDefinition.Output> outputs = template.outputsOrEmpty();
        if (outputs.size() > MAX_OUTPUTS) {
            problems.add("outputs: at most " + MAX_OUTPUTS);
        }
        int canvasHeight = template.canvas() == null ? MAX_LONG_SIDE : template.canvas().height();
        int canvasFps = template.canvas() == null ? MAX_FPS : template.canvas().fps();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < outputs.size(); i++) {
            TemplateDefinition.Output output = outputs.get(i);
            String at = "outputs[" + i + "]";
            if (output == null) {
                problems.add(at + ": must be an object");
                continue;
            }
            if (output.name() == null || !ID.matcher(output.name()).matches()) {
                problems.add(at + ".name: required; letters, digits, '_' and '-', at most 64");
            } else if (!names.add(output.name())) {
                problems.add(at + ".name: '" + output.name() + "' is used twice");
            }
            OutputFormat format = OutputFormat.ofWire(output.format());
            if (format == null) {
                problems.add(at + ".format: one of mp4, webm, gif");
            } else if (i == 0 && format != OutputFormat.MP4) {
                problems.add(at + ".format: the first output is the request's video-url and must be mp4");
            }
            if (output.height() != null && (output.height() < MIN_SIDE || output.height() > canvasHeight
                    || output.height() % 2 != 0)) {
                problems.add(at + ".height: an even number of pixels from " + MIN_SIDE + " to the canvas height ("
                        + canvasHeight + ")");
            }
            if (format == OutputFormat.GIF && (output.height() == null || output.height() > MAX_GIF_HEIGHT)) {
                problems.add(at + ".height: required for a gif, at most " + MAX_GIF_HEIGHT + " pixels");
            }
            if (output.fps() != null && (output.fps() < 1 || output.fps() > canvasFps)) {
                problems.add(at + ".fps: from 1 to the canvas rate (" + canvasFps + ")");
            }
            if (output.duration() != null && (output.duration() < MIN_SEGMENT_DURATION
                    || output.duration() > MAX_DURATION)) {
                problems.add(at + ".duration: seconds, from " + TemplateResolver.seconds(MIN_SEGMENT_DURATION)
                        + " to " + TemplateResolver.seconds(MAX_DURATION));
            }
            if (i == 0 && (output.duration() != null || output.fps() != null)) {
                problems.add(at + ": the first output is the whole video; it takes no duration or fps");
            }
        }
    }

    private static void transition(TemplateDefinition.Transition transition, String path, double duration,
            List<String> problems) {
        if (transition == null) {
            return;
        }
        if (transition.type() != null && !TRANSITIONS.contains(transition.type())) {
            problems.add(path + ".type: one of " + String.join(", ", TRANSITIONS.stream().sorted().toList()));
        }
        if (transition.duration() != null && (transition.duration() < MIN_SEGMENT_DURATION
                || transition.duration() > Math.min(MAX_TRANSITION, duration))) {
            problems.add(path + ".duration: seconds, from " + TemplateResolver.seconds(MIN_SEGMENT_DURATION)
                    + " to " + TemplateResolver.seconds(MAX_TRANSITION) + " and within the segment");
        }
    }

    private static void segments(TemplateDefinition template, Set<String> fieldNames, Registered registered,
            List<String> problems) {
        List<TemplateDefinition.Segment> segments = template.segments();
        if (segments == null || segments.isEmpty()) {
            problems.add("segments: at least one segment is required");
            return;
        }
        if (segments.size() > MAX_SEGMENTS) {
            problems.add("segments: at most " + MAX_SEGMENTS);
        }
        if (template.durationSeconds() > MAX_DURATION + 1e-9) {
            problems.add("segments: together at most " + TemplateResolver.seconds(MAX_DURATION) + " s (they make "
                    + TemplateResolver.seconds(template.durationSeconds()) + " s)");
        }
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < segments.size(); i++) {
            TemplateDefinition.Segment segment = segments.get(i);
            String path = "segments[" + i + "]";
            if (segment == null) {
                problems.add(path + ": must be an object");
                continue;
            }
            if (segment.id() == null || !ID.matcher(segment.id()).matches()) {
                problems.add(path + ".id: required; letters, digits, '_' and '-', at most 64");
            } else if (!ids.add(segment.id())) {
                problems.add(path + ".id: '" + segment.id() + "' is used twice");
            }
            double duration = MAX_DURATION;
            if (segment.speechTimed()) {
                if (segment.layersOrEmpty().stream().noneMatch(l -> l != null && l.layerType() == LayerType.SPEECH)) {
                    problems.add(path + ".duration: \"speech\" needs a speech layer in the segment");
                }
            } else if (segment.duration() == null || !segment.duration().isNumber()) {
                problems.add(path + ".duration: seconds, from " + TemplateResolver.seconds(MIN_SEGMENT_DURATION)
                        + " to " + TemplateResolver.seconds(MAX_DURATION) + ", or \"speech\"");
            } else if (duration(segment.seconds(), path + ".duration", problems)) {
                duration = segment.seconds();
            }
            LayerRules.fades(segment.fade(), segment.fadeIn(), segment.fadeOut(), duration, path,
                    "the segment's duration",
                    problems);
            cohorts(segment.cohorts(), path + ".cohorts", problems);
            transition(segment.transition(), path + ".transition", duration, problems);
            background(segment.background(), path + ".background", template, problems);
            LayerRules.layers(segment.layersOrEmpty(), path + ".layers", duration, template, fieldNames, registered,
                    problems);
            List<TemplateDefinition.Variant> variants = segment.variantsOrEmpty();
            if (variants.size() > MAX_VARIANTS) {
                problems.add(path + ".variants: at most " + MAX_VARIANTS);
            }
            for (int v = 0; v < variants.size(); v++) {
                variant(variants.get(v), path + ".variants[" + v + "]", duration, template, fieldNames, registered,
                        problems);
            }
        }
    }

    private static void variant(TemplateDefinition.Variant variant, String path, double segmentDuration,
            TemplateDefinition template, Set<String> fieldNames, Registered registered, List<String> problems) {
        if (variant == null) {
            problems.add(path + ": must be an object");
            return;
        }
        if (variant.cohorts() == null || variant.cohorts().isEmpty()) {
            problems.add(path + ".cohorts: at least one cohort is required");
        } else {
            cohorts(variant.cohorts(), path + ".cohorts", problems);
        }
        if (Boolean.TRUE.equals(variant.skip())
                && (variant.duration() != null || variant.background() != null || variant.layers() != null)) {
            problems.add(path + ": a variant that skips the segment changes nothing else");
        }
        double duration = segmentDuration;
        if (variant.duration() != null) {
            duration = duration(variant.duration(), path + ".duration", problems)
                    ? variant.duration()
                    : MAX_DURATION;
        }
        background(variant.background(), path + ".background", template, problems);
        if (variant.layers() != null) {
            LayerRules.layers(variant.layers(), path + ".layers", duration, template, fieldNames, registered, problems);
        }
    }

    private static boolean duration(double seconds, String path, List<String> problems) {
        if (seconds < MIN_SEGMENT_DURATION || seconds > MAX_DURATION) {
            problems.add(path + ": seconds, from " + TemplateResolver.seconds(MIN_SEGMENT_DURATION) + " to "
                    + TemplateResolver.seconds(MAX_DURATION));
            return false;
        }
        return true;
    }

    private static void cohorts(List<String> cohorts, String path, List<String> problems) {
        if (cohorts != null && cohorts.stream().anyMatch(VendorInput::isBlank)) {
            problems.add(path + ": cohort names, none blank");
        }
    }

    private static void background(TemplateDefinition.Background background, String path,
            TemplateDefinition template, List<String> problems) {
        if (background == null) {
            return;
        }
        if (background.image() != null && background.video() != null) {
            problems.add(path + ": an image or a video, not both");
        }
        if (background.gradient() != null && (background.image() != null || background.video() != null)) {
            problems.add(path + ": a gradient, or an image or a video, not both");
        }
        if (background.color() == null && background.image() == null && background.video() == null
                && background.gradient() == null) {
            problems.add(path + ": a color, a gradient, an image or a video");
        }
        if (background.gradient() != null && !background.gradient().isObject()) {
            problems.add(path
                    + ".gradient: {\"type\": \"linear\" or \"radial\", \"colors\": [...]} (a colour goes in color)");
        } else {
            GraphicsKeys.graphics(problems, () -> MotionKeys.fill(background.gradient(), path + ".gradient"));
        }
        LayerRules.color(background.color(), path + ".color", problems);
        LayerRules.slotIndex(background.image(), AssetKind.IMAGE, path + ".image", template, problems);
        LayerRules.slotIndex(background.video(), AssetKind.VIDEO, path + ".video", template, problems);
    }

    private static String path(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : e.getPath()) {
            if (reference.getFieldName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "body" : path.toString();
    }

    private static String expectation(JsonMappingException e) {
        Class<?> target = e instanceof MismatchedInputException mismatch
                ? mismatch.getTargetType()
                : null;
        if (target == null) {
            return "not readable";
        }
        if (target == String.class) {
            return "a string";
        }
        if (target == Boolean.class || target == boolean.class) {
            return "true or false";
        }
        if (target == Integer.class || target == int.class || target == Long.class || target == long.class) {
            return "a whole number";
        }
        if (Number.class.isAssignableFrom(target) || target == double.class) {
            return "a number";
        }
        if (target == UUID.class) {
            return "a uuid";
        }
        if (List.class.isAssignableFrom(target)) {
            return "an array";
        }
        return "an object";
    }
}
