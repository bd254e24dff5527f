defmodule Jobs.Stack do
  @moduledoc """
  A stack of jobs, newest on top.
  """
  alias Jobs.Job
  require Logger

  defstruct items: []

  @doc """
  Pushes a job on top of the stack.
  """
  @spec push(t(), Job.t()) :: t()
  def push(%__MODULE__{items: items} = stack, job) do
    Logger.debug("push")
    %{stack | items: [job | items]}
  end

  @doc "Takes the newest job off the stack."
  def pop(%__MODULE__{items: []}), do: {:error, :empty}
  def pop(%__MODULE__{items: [top | rest]} = stack), do: {:ok, top, %{stack | items: rest}}

  defp size(stack), do: length(stack.items)

  defmacro empty?(stack) do
    quote do: unquote(stack).items == []
  end
end

defprotocol Jobs.Runnable do
  def run(job)
end
