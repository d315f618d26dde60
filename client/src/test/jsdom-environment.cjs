const { TestEnvironment } = require('jest-environment-jsdom');

/**
 * jsdom without the encoding and Fetch API globals every browser has (react-router needs
 * TextEncoder; tests answer requests with Response objects). Node's own fill the gap.
 */
class BrowserLikeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    Object.assign(this.global, {
      TextEncoder,
      TextDecoder,
      ReadableStream,
      Headers,
      Request,
      Response,
      structuredClone,
    });
  }
}

module.exports = BrowserLikeEnvironment;
