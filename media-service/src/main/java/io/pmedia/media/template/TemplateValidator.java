package io.pmedia.media.template;

import static io.pmedia.media.template.TemplateLimits.MAX_COORDINATE;
import static io.pmedia.media.template.TemplateLimits.MAX_DURATION;
import static io.pmedia.media.template.TemplateLimits.MAX_FIELDS;
import static io.pmedia.media.template.TemplateLimits.MAX_FPS;
import static io.pmedia.media.template.TemplateLimits.MAX_GIF_HEIGHT;
import static io.pmedia.media.template.TemplateLimits.MAX_LAYERS;
import static io.pmedia.media.template.TemplateLimits.MAX_LONG_SIDE;
import static io.pmedia.media.template.TemplateLimits.MAX_OUTPUTS;
import static io.pmedia.media.template.TemplateLimits.MAX_SEGMENTS;
import static io.pmedia.media.template.TemplateLimits.MAX_SHORT_SIDE;
import static io.pmedia.media.template.TemplateLimits.MAX_SLOTS;
import static io.pmedia.media.template.TemplateLimits.MAX_SPEECH_RATE;
import static io.pmedia.media.template.TemplateLimits.MAX_TEXT;
import static io.pmedia.media.template.TemplateLimits.MAX_TRANSITION;
import static io.pmedia.media.template.TemplateLimits.MAX_VARIANTS;
import static io.pmedia.media.template.TemplateLimits.MIN_SEGMENT_DURATION;
import static io.pmedia.media.template.TemplateLimits.MIN_SIDE;
import static io.pmedia.media.template.TemplateLimits.MIN_SPEECH_RATE;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
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
        color(canvas.background(), "canvas.background", problems);
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
                } else if (TemplateResolver.PLACEHOLDER.matcher(field.defaultValue()).find()) {
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
            fades(segment.fade(), segment.fadeIn(), segment.fadeOut(), duration, path, "the segment's duration",
                    problems);
            cohorts(segment.cohorts(), path + ".cohorts", problems);
            transition(segment.transition(), path + ".transition", duration, problems);
            background(segment.background(), path + ".background", template, problems);
            layers(segment.layersOrEmpty(), path + ".layers", duration, template, fieldNames, registered, problems);
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
            layers(variant.layers(), path + ".layers", duration, template, fieldNames, registered, problems);
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
        color(background.color(), path + ".color", problems);
        slotIndex(background.image(), AssetKind.IMAGE, path + ".image", template, problems);
        slotIndex(background.video(), AssetKind.VIDEO, path + ".video", template, problems);
    }

    private static void layers(List<TemplateDefinition.Layer> layers, String path, double segmentDuration,
            TemplateDefinition template, Set<String> fieldNames, Registered registered, List<String> problems) {
        if (layers.size() > MAX_LAYERS) {
            problems.add(path + ": at most " + MAX_LAYERS + " layers");
        }
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < layers.size(); i++) {
            TemplateDefinition.Layer layer = layers.get(i);
            String at = path + "[" + i + "]";
            if (layer == null || layer.layerType() == null) {
                problems.add(at + ".type: one of text, image, icon, video, speech, shape, lottie");
                continue;
            }
            if (layer.id() != null && !ID.matcher(layer.id()).matches()) {
                problems.add(at + ".id: letters, digits, '_' and '-', at most 64");
            } else if (layer.id() != null && !ids.add(layer.id())) {
                problems.add(at + ".id: '" + layer.id() + "' is used twice in this segment");
            } else if (TemplateResolver.BACKGROUND.equals(layer.id())) {
                problems.add(at + ".id: 'background' is reserved (frame_segments use it for the background)");
            }
            double start = layer.start() == null ? 0 : layer.start();
            double end = layer.end() == null ? segmentDuration : layer.end();
            if (start < 0 || end > segmentDuration + 1e-9 || end <= start) {
                problems.add(at + ": start and end (seconds) must satisfy 0 <= start < end <= "
                        + TemplateResolver.seconds(segmentDuration) + " (the segment's duration)");
            } else {
                fades(layer.fade(), layer.fadeIn(), layer.fadeOut(), end - start, at, "the layer's time on screen",
                        problems);
            }
            if (layer.layerType() == LayerType.LOTTIE) {
                LottieKeys.lottie(layer, at, template, fieldNames, registered.motions(), problems);
            } else {
                LottieKeys.notLottie(layer, at, problems);
            }
            if (layer.layerType() == LayerType.SPEECH) {
                speech(layer, at, fieldNames, problems);
            } else if (layer.layerType() == LayerType.TEXT) {
                text(layer, at, fieldNames, registered.fonts(), problems);
            } else if (layer.layerType() == LayerType.SHAPE) {
                GraphicsKeys.shape(layer, at, problems);
            } else if (layer.layerType() != LayerType.LOTTIE) {
                picture(layer, at, template, problems);
            }
            GraphicsKeys.motion(layer, at, end - start, problems);
            if (layer.layerType() != LayerType.SPEECH && (layer.voice() != null || layer.rate() != null)) {
                problems.add(at + ": voice and rate are for speech layers");
            }
            if (layer.motion() != null && layer.layerType() != LayerType.IMAGE
                    && layer.layerType() != LayerType.ICON && layer.layerType() != LayerType.LOTTIE) {
                problems.add(at + ".motion: only image and icon layers move");
            } else if (layer.motion() != null && layer.layerType() != LayerType.LOTTIE
                    && Motion.ofWire(layer.motion()) == null) {
                problems.add(at + ".motion: one of zoom-in, zoom-out, pan-left, pan-right");
            }
        }
    }

    private static void fades(Double fade, Double fadeIn, Double fadeOut, double span, String path, String what,
            List<String> problems) {
        Map<String, Double> given = new LinkedHashMap<>();
        given.put("fade", fade);
        given.put("fade-in", fadeIn);
        given.put("fade-out", fadeOut);
        given.forEach((key, seconds) -> {
            if (seconds != null && seconds < 0) {
                problems.add(path + "." + key + ": seconds, at least 0");
            }
        });
        double in = Math.max(0, fadeIn != null ? fadeIn : fade != null ? fade : 0);
        double out = Math.max(0, fadeOut != null ? fadeOut : fade != null ? fade : 0);
        if (in + out > span + 1e-9) {
            problems.add(path + ": fade-in and fade-out together are longer than " + what);
        }
    }

    private static void speech(TemplateDefinition.Layer layer, String at, Set<String> fieldNames,
            List<String> problems) {
        placeholders(layer, at, fieldNames, problems);
        if (layer.voice() != null && !VOICE.matcher(layer.voice()).matches()) {
            problems.add(at + ".voice: an espeak-ng voice name such as en, en-us or de");
        }
        if (layer.rate() != null && (layer.rate() < MIN_SPEECH_RATE || layer.rate() > MAX_SPEECH_RATE)) {
            problems.add(at + ".rate: from " + MIN_SPEECH_RATE + " to " + MAX_SPEECH_RATE + " words per minute");
        }
        Map<String, Object> drawn = new LinkedHashMap<>();
        drawn.put("font", layer.font());
        drawn.put("size", layer.size());
        drawn.put("color", layer.color());
        drawn.put("x", layer.x());
        drawn.put("y", layer.y());
        drawn.put("width", layer.width());
        drawn.put("height", layer.height());
        drawn.put("asset", layer.asset());
        drawn.put("fade", layer.fade());
        drawn.put("fade-in", layer.fadeIn());
        drawn.put("fade-out", layer.fadeOut());
        drawn.forEach((key, value) -> {
            if (value != null) {
                problems.add(at + "." + key + ": a speech layer is heard, not drawn");
            }
        });
    }

    private static void placeholders(TemplateDefinition.Layer layer, String at, Set<String> fieldNames,
            List<String> problems) {
        if (layer.text() == null || layer.text().isBlank() || layer.text().length() > MAX_TEXT) {
            problems.add(at + ".text: required, at most " + MAX_TEXT + " characters");
        } else {
            Matcher placeholder = TemplateResolver.PLACEHOLDER.matcher(layer.text());
            while (placeholder.find()) {
                if (!fieldNames.contains(placeholder.group(1))) {
                    problems.add(at + ".text: {{" + placeholder.group(1) + "}} is not a declared field");
                }
            }
        }
    }

    private static void text(TemplateDefinition.Layer layer, String at, Set<String> fieldNames, Set<String> fonts,
            List<String> problems) {
        placeholders(layer, at, fieldNames, problems);
        if (layer.font() != null && TextFont.named(layer.font()) == null && !fonts.contains(layer.font())) {
            List<String> known = new ArrayList<>(TextFont.names());
            fonts.stream().sorted().forEach(known::add);
            problems.add(at + ".font: unknown font '" + layer.font() + "' (fonts: " + String.join(", ", known) + ")");
        }
        int size = layer.size() == null ? TemplateResolver.DEFAULT_TEXT_SIZE : layer.size();
        if (layer.size() != null && (layer.size() < 6 || layer.size() > 400)) {
            problems.add(at + ".size: from 6 to 400 pixels");
        }
        color(layer.color(), at + ".color", problems);
        color(layer.boxColor(), at + ".box-color", problems);
        color(layer.shadowColor(), at + ".shadow-color", problems);
        position(layer.x(), at + ".x", Set.of("left", "center", "right"), problems);
        position(layer.y(), at + ".y", Set.of("top", "center", "bottom"), problems);
        if (layer.align() != null && !ALIGNS.contains(layer.align())) {
            problems.add(at + ".align: one of left, center, right");
        }
        if (layer.maxWidth() != null && (layer.maxWidth() < 16 || layer.maxWidth() > MAX_COORDINATE)) {
            problems.add(at + ".max-width: from 16 to " + MAX_COORDINATE + " pixels");
        }
        if (layer.maxLines() != null && (layer.maxLines() < 1 || layer.maxLines() > 10)) {
            problems.add(at + ".max-lines: from 1 to 10");
        }
        if (layer.minSize() != null && (layer.minSize() < 6 || layer.minSize() > size)) {
            problems.add(at + ".min-size: from 6 to the layer's size (" + size + ")");
        }
        if (layer.lineHeight() != null && (layer.lineHeight() < 0.8 || layer.lineHeight() > 3)) {
            problems.add(at + ".line-height: from 0.8 to 3 (times the size)");
        }
        List<String> misplaced = new ArrayList<>();
        if (layer.width() != null) {
            misplaced.add("width");
        }
        if (layer.height() != null) {
            misplaced.add("height");
        }
        if (layer.fit() != null) {
            misplaced.add("fit");
        }
        if (layer.asset() != null) {
            misplaced.add("asset");
        }
        misplaced.forEach(key -> problems.add(at + "." + key + ": only image, icon and video layers take it"));
    }

    private static void picture(TemplateDefinition.Layer layer, String at, TemplateDefinition template,
            List<String> problems) {
        AssetKind kind = layer.assetKind();
        if (layer.asset() == null) {
            problems.add(at + ".asset: the index of a slot of assets." + kind.listName() + " is required");
        } else {
            slotIndex(layer.asset(), kind, at + ".asset", template, problems);
        }
        if (layer.width() == null || layer.width() < 2 || layer.width() > MAX_COORDINATE) {
            problems.add(at + ".width: required, from 2 to " + MAX_COORDINATE + " pixels");
        }
        if (layer.height() == null || layer.height() < 2 || layer.height() > MAX_COORDINATE) {
            problems.add(at + ".height: required, from 2 to " + MAX_COORDINATE + " pixels");
        }
        if (PictureFit.ofWire(layer.fit()) == null) {
            problems.add(at + ".fit: one of contain, cover, stretch");
        }
        position(layer.x(), at + ".x", Set.of("center"), problems);
        position(layer.y(), at + ".y", Set.of("center"), problems);
        Map<String, Object> textOnly = new LinkedHashMap<>();
        textOnly.put("text", layer.text());
        textOnly.put("font", layer.font());
        textOnly.put("size", layer.size());
        textOnly.put("color", layer.color());
        textOnly.put("box-color", layer.boxColor());
        textOnly.put("box-fill", layer.boxFill());
        textOnly.put("shadow-color", layer.shadowColor());
        textOnly.put("align", layer.align());
        textOnly.put("max-width", layer.maxWidth());
        textOnly.put("max-lines", layer.maxLines());
        textOnly.put("min-size", layer.minSize());
        textOnly.put("line-height", layer.lineHeight());
        textOnly.forEach((key, value) -> {
            if (value != null) {
                problems.add(at + "." + key + ": only text layers take it");
            }
        });
    }

    private static void slotIndex(Integer index, AssetKind kind, String path, TemplateDefinition template,
            List<String> problems) {
        if (index != null && (index < 0 || index >= template.assetsOrEmpty().of(kind).size())) {
            problems.add(path + ": there is no slot assets." + kind.listName() + "[" + index + "]");
        }
    }

    private static void color(String value, String path, List<String> problems) {
        if (value != null && !COLOR.matcher(value).matches()) {
            problems.add(path + ": a colour #rrggbb or #rrggbbaa, like #1d3557");
        }
    }

    static void position(JsonNode value, String path, Set<String> words, List<String> problems) {
        if (value == null || value.isNull()) {
            return;
        }
        if (value.isIntegralNumber() && Math.abs(value.asLong()) <= MAX_COORDINATE) {
            return;
        }
        if (value.isTextual() && words.contains(value.asText().toLowerCase(Locale.ROOT))) {
            return;
        }
        problems.add(path + ": whole pixels (at most " + MAX_COORDINATE + " either way) or one of "
                + String.join(", ", words.stream().sorted().toList()));
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
