--- A bounded FIFO queue.
-- @module queue
local json = require("cjson")

local Queue = {}
Queue.__index = Queue

local DEFAULT_SIZE = 16

--- Create an empty queue.
-- @param size the largest number of items
function Queue.new(size)
  local self = setmetatable({}, Queue)
  self.items = {}
  self.size = size or DEFAULT_SIZE
  return self
end

--- Append an item; fails when the queue is full.
function Queue:push(item)
  if self:full() then
    error("queue is full")
  end
  table.insert(self.items, item)
end

function Queue:full()
  return #self.items >= self.size
end

local function encode(items)
  return json.encode(items)
end

Queue.dump = function(queue)
  return encode(queue.items)
end

return Queue
