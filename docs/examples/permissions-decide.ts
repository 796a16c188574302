import { decide, validatePermissions } from "delve";

const rules = validatePermissions([{ operations: ["read"], paths: ["/secrets/**"], mode: "deny" }]);
console.log(decide(rules, "read", "secrets/.env").mode); // "deny"
