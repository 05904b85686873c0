package org.overloadcontrol.sample;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;

/**
 * Starts the shop when the web application starts: reads {@link ShopSettings} from the
 * context-params and system properties, draws the product images, and publishes the
 * {@link Shop} for the servlets. A bad setting fails the deployment with a message naming it.
 */
public class ShopListener implements ServletContextListener {

  @Override
  public void contextInitialized(ServletContextEvent event) {
    ServletContext context = event.getServletContext();
    ShopSettings settings = ShopSettings.read(context::getInitParameter, System::getProperty);
    context.setAttribute(Shop.ATTRIBUTE, Shop.start(settings));
    context.log(
        "sample shop started: timeScale "
            + settings.timeScale()
            + ", "
            + settings.dbConnections()
            + " database connections, dbWait "
            + settings.dbWait());
  }

  @Override
  public void contextDestroyed(ServletContextEvent event) {
    event.getServletContext().removeAttribute(Shop.ATTRIBUTE);
  }
}
