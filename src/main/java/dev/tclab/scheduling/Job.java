package dev.tclab.scheduling;

import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code @Scheduled} method as one of the app's jobs: whatever it throws, an {@code Error} too, is caught and
 * logged, so it runs again at its next tick, and each run is recorded for the health check ({@link JobGuard},
 * {@link JobRuns}). Every {@code @Scheduled} method carries it (a test holds that).
 */
@InterceptorBinding
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Job {}
