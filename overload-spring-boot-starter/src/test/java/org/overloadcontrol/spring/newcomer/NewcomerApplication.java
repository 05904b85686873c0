package org.overloadcontrol.spring.newcomer;

import java.util.concurrent.Semaphore;
import org.overloadcontrol.annotation.ResponseTimeTarget;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The newcomer's application: web, actuator and the starter on the class path, one
 * {@code @GetMapping} method with a target, nothing else. Its work is bounded by a resource with
 * {@value #WORKERS} workers that each take {@value #SERVICE_MILLIS} ms a request (a pool of
 * database connections, say), so its capacity is known: {@link #CAPACITY_PER_SECOND} requests a
 * second. Only the Spring Boot API both majors share is used, so that the same class runs on
 * Spring Boot 3.5 and 4.
 */
@SpringBootApplication
@RestController
public class NewcomerApplication {

  static final int WORKERS = 2;
  static final int SERVICE_MILLIS = 20;

  /** What the resource can serve a second. */
  public static final int CAPACITY_PER_SECOND = WORKERS * 1000 / SERVICE_MILLIS;

  private final Semaphore workers = new Semaphore(WORKERS, true);

  @GetMapping("/work")
  @ResponseTimeTarget("200ms")
  public String work() throws InterruptedException {
    workers.acquire();
    try {
      // The resource's service time: the application under test works, the test never sleeps.
      Thread.sleep(SERVICE_MILLIS);
    } finally {
      workers.release();
    }
    return "done";
  }
}
