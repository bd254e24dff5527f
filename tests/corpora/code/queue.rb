# A tiny job queue.
require "json"
require_relative "job"

module Jobs
  MAX_SIZE = 100

  # Holds jobs in FIFO order.
  class Queue
    def initialize
      @items = []
    end

    # Add a job to the tail.
    def push(job)
      raise ArgumentError, "full" if full?
      @items.push(serialize(job))
    end

    def full?
      @items.size >= MAX_SIZE
    end

    def self.create
      new
    end

    private

    def serialize(job)
      JSON.generate(job)
    end
  end
end

def run_all(queue)
  queue.push({ name: "x" })
end
