package io.strimzi.crdgenerator.annotations;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Strimzi's annotation for the API versions a field exists in, declared here under its own name so that reflection
 * can read it from io.strimzi:api's classes: its jar is not on Maven Central for the model version deploy-checks
 * uses (0.51.0) and is compiled for Java 21 in 1.x. Same name, retention and member as Strimzi's.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD, ElementType.TYPE})
public @interface PresentInVersions {

    String value();
}
