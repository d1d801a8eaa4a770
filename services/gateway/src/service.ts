export { buildGateway, type GatewayContext } from './app.js';
export { GatewayConfig } from './config.js';
